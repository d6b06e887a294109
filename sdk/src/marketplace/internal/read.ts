import type { Abi, ContractFunctionArgs, ContractFunctionName, ReadContractParameters, ReadContractReturnType } from "viem";
import { readContract } from "viem/actions";
import { toMarketplaceError } from "../errors.ts";
import type { MarketplaceClient } from "./client.ts";

/**
 * `readContract` with the result typed from the `as const` ABI and any failure turned into a
 * {@link MarketplaceError} (custom errors of all three contracts decoded by name).
 */
export async function readMarketplace<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, "pure" | "view">,
  const args extends ContractFunctionArgs<abi, "pure" | "view", functionName>,
>(
  client: MarketplaceClient,
  parameters: ReadContractParameters<abi, functionName, args>,
): Promise<ReadContractReturnType<abi, functionName, args>> {
  try {
    return await readContract(client, parameters);
  } catch (error) {
    throw toMarketplaceError(error);
  }
}
