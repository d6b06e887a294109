import { getLogs } from "viem/actions";
import type { MarketplaceAddresses } from "../deployments.ts";
import { toMarketplaceError, type MarketplaceTransactionError } from "../errors.ts";
import { decodeMarketplaceEvents, type MarketplaceEvent } from "../events.ts";
import type { MarketplaceClient } from "../internal/client.ts";

/** Parameters of {@link getMarketplaceEvents}. */
export interface GetMarketplaceEventsParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** First block of the range. */
  fromBlock: bigint;
  /** Last block of the range (default: the latest). */
  toBlock?: bigint;
}

/** What {@link getMarketplaceEvents} resolves with: the decoded events of the three contracts, in log order. */
export type GetMarketplaceEventsReturnType = MarketplaceEvent[];

/** Errors {@link getMarketplaceEvents} can throw. */
export type GetMarketplaceEventsErrorType = MarketplaceTransactionError;

/**
 * Fetches and decodes the events of the three contracts in a block range.
 *
 * @example
 * const client = createPublicClient({ chain, transport: http() }).extend(marketplaceActions(addresses));
 * const sales = (await client.getMarketplaceEvents({ fromBlock: 0n })).filter((e) => e.eventName === "Purchased");
 * // or, without the decorator:
 * const events = await getMarketplaceEvents(client, { addresses, fromBlock: 0n });
 */
export async function getMarketplaceEvents(
  client: MarketplaceClient,
  parameters: GetMarketplaceEventsParameters,
): Promise<GetMarketplaceEventsReturnType> {
  const { addresses } = parameters;
  try {
    const logs = await getLogs(client, {
      address: [addresses.templateRegistry, addresses.licenseToken, addresses.marketplace],
      fromBlock: parameters.fromBlock,
      toBlock: parameters.toBlock ?? "latest",
    });
    return decodeMarketplaceEvents(logs, addresses);
  } catch (error) {
    throw toMarketplaceError(error);
  }
}
