import type { Address } from "viem";
import { agentsErrors } from "../errors.ts";
import type { AgentsConfig } from "../config.ts";

/**
 * Whether `buyer` may install a pack tied to a marketplace template: it must hold a valid
 * licence on the configured chain (the SDK's `holdsValidLicense`). Refusals are 403
 * `LICENSE_REQUIRED`; a chain that cannot be asked is 503 `LICENSE_CHECK_UNAVAILABLE`.
 */
export async function assertLicence(config: AgentsConfig["marketplace"], pack: string, templateId: string, buyer: string | undefined): Promise<void> {
  if (!buyer) throw agentsErrors.LICENSE_REQUIRED({ name: pack, templateId, reason: "pass the buyer address that holds it" });
  // viem and the SDK are ~500 modules: loaded by the first licence check, not at start.
  const [{ createPublicClient, http, isAddress }, { holdsValidLicense }] = await Promise.all([import("viem"), import("@muster/sdk")]);
  if (!isAddress(buyer, { strict: false })) throw agentsErrors.LICENSE_REQUIRED({ name: pack, templateId, reason: "the buyer is not an address" });
  if (!config) throw agentsErrors.LICENSE_CHECK_UNAVAILABLE({ reason: "no marketplace chain is configured (agents.marketplace)" });
  const client = createPublicClient({ transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0 }) });
  let holds: boolean;
  try {
    holds = await holdsValidLicense(client, { addresses: config.addresses as { templateRegistry: Address; licenseToken: Address; marketplace: Address }, user: buyer as Address, templateId: BigInt(templateId) });
  } catch (error) {
    throw agentsErrors.LICENSE_CHECK_UNAVAILABLE({ reason: (error as { shortMessage?: string }).shortMessage ?? "the chain did not answer" }, { cause: error });
  }
  if (!holds) throw agentsErrors.LICENSE_REQUIRED({ name: pack, templateId, reason: `${buyer} holds no valid licence for it` });
}
