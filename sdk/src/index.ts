// @muster/sdk: package entry point (a plain barrel). One file per action under marketplace/actions/, each
// exporting the action and its Parameters, ReturnType and ErrorType types; marketplaceActions bundles them
// for viem's client.extend.
export { templateRegistryAbi } from "./abi/template-registry.ts";
export { licenseTokenAbi } from "./abi/license-token.ts";
export { marketplaceAbi } from "./abi/marketplace.ts";
export { marketplaceSystemAbi } from "./marketplace/abi.ts";
export { marketplaceActions, type MarketplaceActions } from "./marketplace/marketplace-actions.ts";
export type { MarketplaceClient } from "./marketplace/internal/client.ts";
export type { WriteResult, WriteReturn } from "./marketplace/internal/write.ts";
export type { MarketplaceContract } from "./marketplace/types.ts";
export { acceptOwnership, type AcceptOwnershipParameters, type AcceptOwnershipReturnType, type AcceptOwnershipErrorType } from "./marketplace/actions/accept-ownership.ts";
export { accruedFees, type AccruedFeesParameters, type AccruedFeesReturnType, type AccruedFeesErrorType } from "./marketplace/actions/accrued-fees.ts";
export { approve, type ApproveParameters, type ApproveReturnType, type ApproveErrorType } from "./marketplace/actions/approve.ts";
export { balanceOf, type BalanceOfParameters, type BalanceOfReturnType, type BalanceOfErrorType } from "./marketplace/actions/balance-of.ts";
export { deactivateTemplate, type DeactivateTemplateParameters, type DeactivateTemplateReturnType, type DeactivateTemplateErrorType } from "./marketplace/actions/deactivate-template.ts";
export { getApproved, type GetApprovedParameters, type GetApprovedReturnType, type GetApprovedErrorType } from "./marketplace/actions/get-approved.ts";
export { getLicense, type GetLicenseParameters, type GetLicenseReturnType, type GetLicenseErrorType } from "./marketplace/actions/get-license.ts";
export { getMarketplaceEvents, type GetMarketplaceEventsParameters, type GetMarketplaceEventsReturnType, type GetMarketplaceEventsErrorType } from "./marketplace/actions/get-marketplace-events.ts";
export { getTemplate, type GetTemplateParameters, type GetTemplateReturnType, type GetTemplateErrorType } from "./marketplace/actions/get-template.ts";
export { getTemplatesByCreator, type GetTemplatesByCreatorParameters, type GetTemplatesByCreatorReturnType, type GetTemplatesByCreatorErrorType } from "./marketplace/actions/get-templates-by-creator.ts";
export { hasLicense, type HasLicenseParameters, type HasLicenseReturnType, type HasLicenseErrorType } from "./marketplace/actions/has-license.ts";
export { heldBalanceOf, type HeldBalanceOfParameters, type HeldBalanceOfReturnType, type HeldBalanceOfErrorType } from "./marketplace/actions/held-balance-of.ts";
export { holdsValidLicense, type HoldsValidLicenseParameters, type HoldsValidLicenseReturnType, type HoldsValidLicenseErrorType } from "./marketplace/actions/holds-valid-license.ts";
export { isApprovedForAll, type IsApprovedForAllParameters, type IsApprovedForAllReturnType, type IsApprovedForAllErrorType } from "./marketplace/actions/is-approved-for-all.ts";
export { licensesOf, type LicensesOfParameters, type LicensesOfReturnType, type LicensesOfErrorType } from "./marketplace/actions/licenses-of.ts";
export { marketplaceOf, type MarketplaceOfParameters, type MarketplaceOfReturnType, type MarketplaceOfErrorType } from "./marketplace/actions/marketplace-of.ts";
export { mint, type MintParameters, type MintReturnType, type MintErrorType } from "./marketplace/actions/mint.ts";
export { owner, type OwnerParameters, type OwnerReturnType, type OwnerErrorType } from "./marketplace/actions/owner.ts";
export { ownerOf, type OwnerOfParameters, type OwnerOfReturnType, type OwnerOfErrorType } from "./marketplace/actions/owner-of.ts";
export { pause, type PauseParameters, type PauseReturnType, type PauseErrorType } from "./marketplace/actions/pause.ts";
export { paused, type PausedParameters, type PausedReturnType, type PausedErrorType } from "./marketplace/actions/paused.ts";
export { pendingOwner, type PendingOwnerParameters, type PendingOwnerReturnType, type PendingOwnerErrorType } from "./marketplace/actions/pending-owner.ts";
export { platformFeeBps, type PlatformFeeBpsParameters, type PlatformFeeBpsReturnType, type PlatformFeeBpsErrorType } from "./marketplace/actions/platform-fee-bps.ts";
export { purchase, type PurchaseParameters, type PurchaseReturnType, type PurchaseErrorType } from "./marketplace/actions/purchase.ts";
export { recordInstall, type RecordInstallParameters, type RecordInstallReturnType, type RecordInstallErrorType } from "./marketplace/actions/record-install.ts";
export { registerTemplate, type RegisterTemplateParameters, type RegisterTemplateReturnType, type RegisterTemplateErrorType } from "./marketplace/actions/register-template.ts";
export { renounceOwnership, type RenounceOwnershipParameters, type RenounceOwnershipReturnType, type RenounceOwnershipErrorType } from "./marketplace/actions/renounce-ownership.ts";
export { revokeLicense, type RevokeLicenseParameters, type RevokeLicenseReturnType, type RevokeLicenseErrorType } from "./marketplace/actions/revoke-license.ts";
export { royaltyInfo, type RoyaltyInfoParameters, type RoyaltyInfoReturnType, type RoyaltyInfoErrorType } from "./marketplace/actions/royalty-info.ts";
export { royaltyOf, type RoyaltyOfParameters, type RoyaltyOfReturnType, type RoyaltyOfErrorType } from "./marketplace/actions/royalty-of.ts";
export { safeTransferLicense, type SafeTransferLicenseParameters, type SafeTransferLicenseReturnType, type SafeTransferLicenseErrorType } from "./marketplace/actions/safe-transfer-license.ts";
export { setApprovalForAll, type SetApprovalForAllParameters, type SetApprovalForAllReturnType, type SetApprovalForAllErrorType } from "./marketplace/actions/set-approval-for-all.ts";
export { setMarketplace, type SetMarketplaceParameters, type SetMarketplaceReturnType, type SetMarketplaceErrorType } from "./marketplace/actions/set-marketplace.ts";
export { setPlatformFee, type SetPlatformFeeParameters, type SetPlatformFeeReturnType, type SetPlatformFeeErrorType } from "./marketplace/actions/set-platform-fee.ts";
export { surplus, type SurplusParameters, type SurplusReturnType, type SurplusErrorType } from "./marketplace/actions/surplus.ts";
export { sweepSurplus, type SweepSurplusParameters, type SweepSurplusReturnType, type SweepSurplusErrorType } from "./marketplace/actions/sweep-surplus.ts";
export { templateCount, type TemplateCountParameters, type TemplateCountReturnType, type TemplateCountErrorType } from "./marketplace/actions/template-count.ts";
export { tokenURI, type TokenURIParameters, type TokenURIReturnType, type TokenURIErrorType } from "./marketplace/actions/token-uri.ts";
export { totalHeld, type TotalHeldParameters, type TotalHeldReturnType, type TotalHeldErrorType } from "./marketplace/actions/total-held.ts";
export { totalMinted, type TotalMintedParameters, type TotalMintedReturnType, type TotalMintedErrorType } from "./marketplace/actions/total-minted.ts";
export { transferLicense, type TransferLicenseParameters, type TransferLicenseReturnType, type TransferLicenseErrorType } from "./marketplace/actions/transfer-license.ts";
export { transferOwnership, type TransferOwnershipParameters, type TransferOwnershipReturnType, type TransferOwnershipErrorType } from "./marketplace/actions/transfer-ownership.ts";
export { unpause, type UnpauseParameters, type UnpauseReturnType, type UnpauseErrorType } from "./marketplace/actions/unpause.ts";
export { updateTemplate, type UpdateTemplateParameters, type UpdateTemplateReturnType, type UpdateTemplateErrorType } from "./marketplace/actions/update-template.ts";
export { validLicenseCount, type ValidLicenseCountParameters, type ValidLicenseCountReturnType, type ValidLicenseCountErrorType } from "./marketplace/actions/valid-license-count.ts";
export { withdraw, type WithdrawParameters, type WithdrawReturnType, type WithdrawErrorType } from "./marketplace/actions/withdraw.ts";
export { withdrawFees, type WithdrawFeesParameters, type WithdrawFeesReturnType, type WithdrawFeesErrorType } from "./marketplace/actions/withdraw-fees.ts";
export { withdrawTo, type WithdrawToParameters, type WithdrawToReturnType, type WithdrawToErrorType } from "./marketplace/actions/withdraw-to.ts";
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
  type MarketplaceReadErrorType,
  type MarketplaceWriteErrorType,
} from "./marketplace/errors.ts";
export { decodeMarketplaceEvents, type MarketplaceEvent } from "./marketplace/events.ts";
export { MARKETPLACE_LIMITS } from "./marketplace/validate.ts";
// The REST client: a typed method per route (generated from /api/openapi.json), the live
// stream, agent helpers and typed errors.
export * from "./rest/index.ts";
export {
  packLicenceProofDomain,
  packLicenceProofTypes,
  PACK_LICENCE_PROOF_NAME,
  PACK_LICENCE_PROOF_VERSION,
  type PackLicenceChallenge,
  type PackLicenceProof,
} from "./marketplace/pack-licence-proof.ts";
export { estimatePurchaseCost, type EstimatePurchaseCostParameters, type EstimatePurchaseCostReturnType, type EstimatePurchaseCostErrorType } from "./marketplace/actions/estimate-purchase-cost.ts";
export { signPackLicence, type SignPackLicenceParameters, type SignPackLicenceReturnType, type SignPackLicenceErrorType } from "./marketplace/actions/sign-pack-licence.ts";
