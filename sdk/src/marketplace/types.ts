import type { MarketplaceAddresses } from "./deployments.ts";

/** Which of the three contracts an owner-level action targets. */
export type MarketplaceContract = keyof MarketplaceAddresses;
