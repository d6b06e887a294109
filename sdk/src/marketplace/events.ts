import { parseEventLogs, type Address, type Hash, type Log } from "viem";
import { marketplaceSystemAbi } from "./abi.ts";
import type { MarketplaceAddresses } from "./deployments.ts";

/** A decoded event of one of the three contracts. */
export interface MarketplaceEvent {
  contract: "templateRegistry" | "licenseToken" | "marketplace";
  eventName: string;
  args: Record<string, unknown>;
  address: Address;
  blockNumber: bigint | null;
  transactionHash: Hash | null;
  logIndex: number | null;
}

/** Decodes the logs emitted by the marketplace contracts; logs of other contracts are skipped. */
export function decodeMarketplaceEvents(logs: readonly Log[], addresses: MarketplaceAddresses): MarketplaceEvent[] {
  const byAddress = new Map<string, MarketplaceEvent["contract"]>([
    [addresses.templateRegistry.toLowerCase(), "templateRegistry"],
    [addresses.licenseToken.toLowerCase(), "licenseToken"],
    [addresses.marketplace.toLowerCase(), "marketplace"],
  ]);
  const ours = logs.filter((log) => byAddress.has(log.address.toLowerCase()));
  return parseEventLogs({ abi: marketplaceSystemAbi, logs: ours as Log[], strict: true }).map((log) => ({
    contract: byAddress.get(log.address.toLowerCase())!,
    eventName: log.eventName,
    args: log.args as unknown as Record<string, unknown>,
    address: log.address,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
  }));
}
