import type { Account, Chain, Client, Transport } from "viem";

/**
 * The client every marketplace action runs on: any viem client (public, wallet, or one extended with both).
 * Reads need only a transport; writes need the client's `account`.
 */
export type MarketplaceClient = Client<Transport, Chain | undefined, Account | undefined>;
