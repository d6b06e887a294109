// @muster/sdk: package entry point (a plain barrel).
export { templateRegistryAbi } from "./abi/template-registry.ts";
export { licenseTokenAbi } from "./abi/license-token.ts";
export { marketplaceAbi } from "./abi/marketplace.ts";
export { marketplaceSystemAbi } from "./marketplace/abi.ts";
export {
  createMarketplaceClient,
  createMarketplaceClientFromDeployments,
  type License,
  type MarketplaceClient,
  type MarketplaceClientConfig,
  type MarketplaceContract,
  type Template,
  type WriteResult,
} from "./marketplace/client.ts";
export {
  getMarketplaceDeployment,
  loadMarketplaceDeployments,
  type MarketplaceAddresses,
  type MarketplaceDeployment,
  type MarketplaceDeployments,
} from "./marketplace/deployments.ts";
export {
  MarketplaceContractError,
  MarketplaceDeploymentNotFoundError,
  MarketplaceError,
  MarketplacePriceAboveLimitError,
  MarketplaceTransactionError,
  MarketplaceValidationError,
  MarketplaceWalletRequiredError,
  toMarketplaceError,
  type MarketplaceContractErrorName,
  type MarketplaceErrorCode,
} from "./marketplace/errors.ts";
export { decodeMarketplaceEvents, type MarketplaceEvent } from "./marketplace/events.ts";
export { MARKETPLACE_LIMITS } from "./marketplace/validate.ts";
