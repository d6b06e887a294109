import type {
  Abi,
  Address,
  ContractFunctionArgs,
  ContractFunctionName,
  ContractFunctionReturnType,
  Hash,
  TransactionReceipt,
} from "viem";
import { simulateContract, waitForTransactionReceipt, writeContract } from "viem/actions";
import type { MarketplaceAddresses } from "../deployments.ts";
import { MarketplaceTransactionError, MarketplaceWalletRequiredError, toMarketplaceError } from "../errors.ts";
import { decodeMarketplaceEvents, type MarketplaceEvent } from "../events.ts";
import type { MarketplaceClient } from "./client.ts";

/** What every write action resolves with once its transaction is mined. */
export interface WriteResult<result = void> {
  hash: Hash;
  receipt: TransactionReceipt;
  /** The function's return value, from the simulation that preceded sending. */
  result: result;
  /** Decoded events of the three contracts in the receipt. */
  events: MarketplaceEvent[];
}

type Mutability = "nonpayable" | "payable";

/** The value a write's simulation returns, typed from the `as const` ABI. */
export type WriteReturn<
  abi extends Abi,
  functionName extends ContractFunctionName<abi, Mutability>,
  args extends ContractFunctionArgs<abi, Mutability, functionName> = ContractFunctionArgs<abi, Mutability, functionName>,
> = WriteResult<ContractFunctionReturnType<abi, Mutability, functionName, args>>;

/**
 * Simulates the call with the client's account (so a revert costs no gas and surfaces as a
 * {@link MarketplaceContractError}), sends it, waits for the receipt and decodes the events.
 */
export async function writeMarketplace<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, Mutability>,
  const args extends ContractFunctionArgs<abi, Mutability, functionName>,
>(
  client: MarketplaceClient,
  addresses: MarketplaceAddresses,
  parameters: { address: Address; abi: abi; functionName: functionName; args: args; value?: bigint },
): Promise<WriteReturn<abi, functionName>> {
  const account = client.account;
  if (!account) throw new MarketplaceWalletRequiredError();
  try {
    // viem's parameter types do not narrow over a generic ABI inside this helper; the call is type-checked at
    // each action (concrete ABI, function name and arguments), and the result typed from the same ABI.
    const { request, result } = await simulateContract(client, { ...parameters, account } as never);
    const hash = await writeContract(client, { ...(request as object), account, chain: client.chain ?? null } as never);
    const receipt = await waitForTransactionReceipt(client, { hash });
    if (receipt.status !== "success") throw new MarketplaceTransactionError(`transaction ${hash} reverted`);
    return { hash, receipt, result: result as ContractFunctionReturnType<abi, Mutability, functionName>, events: decodeMarketplaceEvents(receipt.logs, addresses) };
  } catch (error) {
    throw toMarketplaceError(error);
  }
}
