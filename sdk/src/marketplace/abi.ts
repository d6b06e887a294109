import type { Abi } from "viem";
import { licenseTokenAbi } from "../abi/license-token.ts";
import { marketplaceAbi } from "../abi/marketplace.ts";
import { templateRegistryAbi } from "../abi/template-registry.ts";

/**
 * Every error and event of the three contracts in one ABI. A purchase can revert inside the registry or the
 * license token, and a receipt carries logs of all three, so decoding needs all of them.
 */
export const marketplaceSystemAbi = dedupe([...marketplaceAbi, ...licenseTokenAbi, ...templateRegistryAbi]);

function dedupe(items: readonly Abi[number][]): Abi {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (item.type !== "error" && item.type !== "event") return false;
    const key = `${item.type}:${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
