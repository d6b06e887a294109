import type { MarketplaceAddresses } from "./deployments.ts";
import type { Account, Chain, Client, Transport } from "viem";
import { checkMarketplaceAddresses } from "./validate.ts";
import { acceptOwnership, type AcceptOwnershipParameters, type AcceptOwnershipReturnType } from "./actions/accept-ownership.ts";
import { accruedFees, type AccruedFeesReturnType } from "./actions/accrued-fees.ts";
import { approve, type ApproveParameters, type ApproveReturnType } from "./actions/approve.ts";
import { balanceOf, type BalanceOfParameters, type BalanceOfReturnType } from "./actions/balance-of.ts";
import { deactivateTemplate, type DeactivateTemplateParameters, type DeactivateTemplateReturnType } from "./actions/deactivate-template.ts";
import { getApproved, type GetApprovedParameters, type GetApprovedReturnType } from "./actions/get-approved.ts";
import { getLicense, type GetLicenseParameters, type GetLicenseReturnType } from "./actions/get-license.ts";
import { getMarketplaceEvents, type GetMarketplaceEventsParameters, type GetMarketplaceEventsReturnType } from "./actions/get-marketplace-events.ts";
import { getTemplate, type GetTemplateParameters, type GetTemplateReturnType } from "./actions/get-template.ts";
import { getTemplatesByCreator, type GetTemplatesByCreatorParameters, type GetTemplatesByCreatorReturnType } from "./actions/get-templates-by-creator.ts";
import { hasLicense, type HasLicenseParameters, type HasLicenseReturnType } from "./actions/has-license.ts";
import { heldBalanceOf, type HeldBalanceOfParameters, type HeldBalanceOfReturnType } from "./actions/held-balance-of.ts";
import { holdsValidLicense, type HoldsValidLicenseParameters, type HoldsValidLicenseReturnType } from "./actions/holds-valid-license.ts";
import { isApprovedForAll, type IsApprovedForAllParameters, type IsApprovedForAllReturnType } from "./actions/is-approved-for-all.ts";
import { licensesOf, type LicensesOfParameters, type LicensesOfReturnType } from "./actions/licenses-of.ts";
import { marketplaceOf, type MarketplaceOfParameters, type MarketplaceOfReturnType } from "./actions/marketplace-of.ts";
import { mint, type MintParameters, type MintReturnType } from "./actions/mint.ts";
import { owner, type OwnerParameters, type OwnerReturnType } from "./actions/owner.ts";
import { ownerOf, type OwnerOfParameters, type OwnerOfReturnType } from "./actions/owner-of.ts";
import { pause, type PauseReturnType } from "./actions/pause.ts";
import { paused, type PausedReturnType } from "./actions/paused.ts";
import { pendingOwner, type PendingOwnerParameters, type PendingOwnerReturnType } from "./actions/pending-owner.ts";
import { platformFeeBps, type PlatformFeeBpsReturnType } from "./actions/platform-fee-bps.ts";
import { purchase, type PurchaseParameters, type PurchaseReturnType } from "./actions/purchase.ts";
import { estimatePurchaseCost, type EstimatePurchaseCostParameters, type EstimatePurchaseCostReturnType } from "./actions/estimate-purchase-cost.ts";
import { recordInstall, type RecordInstallParameters, type RecordInstallReturnType } from "./actions/record-install.ts";
import { registerTemplate, type RegisterTemplateParameters, type RegisterTemplateReturnType } from "./actions/register-template.ts";
import { renounceOwnership, type RenounceOwnershipParameters, type RenounceOwnershipReturnType } from "./actions/renounce-ownership.ts";
import { revokeLicense, type RevokeLicenseParameters, type RevokeLicenseReturnType } from "./actions/revoke-license.ts";
import { royaltyInfo, type RoyaltyInfoParameters, type RoyaltyInfoReturnType } from "./actions/royalty-info.ts";
import { royaltyOf, type RoyaltyOfParameters, type RoyaltyOfReturnType } from "./actions/royalty-of.ts";
import { safeTransferLicense, type SafeTransferLicenseParameters, type SafeTransferLicenseReturnType } from "./actions/safe-transfer-license.ts";
import { setApprovalForAll, type SetApprovalForAllParameters, type SetApprovalForAllReturnType } from "./actions/set-approval-for-all.ts";
import { setMarketplace, type SetMarketplaceParameters, type SetMarketplaceReturnType } from "./actions/set-marketplace.ts";
import { setPlatformFee, type SetPlatformFeeParameters, type SetPlatformFeeReturnType } from "./actions/set-platform-fee.ts";
import { surplus, type SurplusReturnType } from "./actions/surplus.ts";
import { sweepSurplus, type SweepSurplusParameters, type SweepSurplusReturnType } from "./actions/sweep-surplus.ts";
import { templateCount, type TemplateCountReturnType } from "./actions/template-count.ts";
import { tokenURI, type TokenURIParameters, type TokenURIReturnType } from "./actions/token-uri.ts";
import { totalHeld, type TotalHeldReturnType } from "./actions/total-held.ts";
import { totalMinted, type TotalMintedReturnType } from "./actions/total-minted.ts";
import { transferLicense, type TransferLicenseParameters, type TransferLicenseReturnType } from "./actions/transfer-license.ts";
import { transferOwnership, type TransferOwnershipParameters, type TransferOwnershipReturnType } from "./actions/transfer-ownership.ts";
import { unpause, type UnpauseReturnType } from "./actions/unpause.ts";
import { updateTemplate, type UpdateTemplateParameters, type UpdateTemplateReturnType } from "./actions/update-template.ts";
import { validLicenseCount, type ValidLicenseCountParameters, type ValidLicenseCountReturnType } from "./actions/valid-license-count.ts";
import { withdraw, type WithdrawReturnType } from "./actions/withdraw.ts";
import { withdrawFees, type WithdrawFeesParameters, type WithdrawFeesReturnType } from "./actions/withdraw-fees.ts";
import { withdrawTo, type WithdrawToParameters, type WithdrawToReturnType } from "./actions/withdraw-to.ts";

/** An action as the decorator exposes it: the same parameters without `addresses`, which are bound once. */
type Bound<parameters> = Omit<parameters, "addresses">;

/**
 * The methods {@link marketplaceActions} adds to a viem client: every marketplace action, addresses bound.
 * A type alias, not an interface: `client.extend` needs the implicit index signature only aliases have.
 */
export type MarketplaceActions = {
  /** The contract addresses the actions are bound to, validated. */
  marketplaceAddresses: MarketplaceAddresses;
  /** See {@link acceptOwnership}. */
  acceptOwnership: (parameters: Bound<AcceptOwnershipParameters>) => Promise<AcceptOwnershipReturnType>;
  /** See {@link accruedFees}. */
  accruedFees: () => Promise<AccruedFeesReturnType>;
  /** See {@link approve}. */
  approve: (parameters: Bound<ApproveParameters>) => Promise<ApproveReturnType>;
  /** See {@link balanceOf}. */
  balanceOf: (parameters: Bound<BalanceOfParameters>) => Promise<BalanceOfReturnType>;
  /** See {@link deactivateTemplate}. */
  deactivateTemplate: (parameters: Bound<DeactivateTemplateParameters>) => Promise<DeactivateTemplateReturnType>;
  /** See {@link getApproved}. */
  getApproved: (parameters: Bound<GetApprovedParameters>) => Promise<GetApprovedReturnType>;
  /** See {@link getLicense}. */
  getLicense: (parameters: Bound<GetLicenseParameters>) => Promise<GetLicenseReturnType>;
  /** See {@link getMarketplaceEvents}. */
  getMarketplaceEvents: (parameters: Bound<GetMarketplaceEventsParameters>) => Promise<GetMarketplaceEventsReturnType>;
  /** See {@link getTemplate}. */
  getTemplate: (parameters: Bound<GetTemplateParameters>) => Promise<GetTemplateReturnType>;
  /** See {@link getTemplatesByCreator}. */
  getTemplatesByCreator: (parameters: Bound<GetTemplatesByCreatorParameters>) => Promise<GetTemplatesByCreatorReturnType>;
  /** See {@link hasLicense}. */
  hasLicense: (parameters: Bound<HasLicenseParameters>) => Promise<HasLicenseReturnType>;
  /** See {@link heldBalanceOf}. */
  heldBalanceOf: (parameters: Bound<HeldBalanceOfParameters>) => Promise<HeldBalanceOfReturnType>;
  /** See {@link holdsValidLicense}. */
  holdsValidLicense: (parameters: Bound<HoldsValidLicenseParameters>) => Promise<HoldsValidLicenseReturnType>;
  /** See {@link isApprovedForAll}. */
  isApprovedForAll: (parameters: Bound<IsApprovedForAllParameters>) => Promise<IsApprovedForAllReturnType>;
  /** See {@link licensesOf}. */
  licensesOf: (parameters: Bound<LicensesOfParameters>) => Promise<LicensesOfReturnType>;
  /** See {@link marketplaceOf}. */
  marketplaceOf: (parameters: Bound<MarketplaceOfParameters>) => Promise<MarketplaceOfReturnType>;
  /** See {@link mint}. */
  mint: (parameters: Bound<MintParameters>) => Promise<MintReturnType>;
  /** See {@link owner}. */
  owner: (parameters: Bound<OwnerParameters>) => Promise<OwnerReturnType>;
  /** See {@link ownerOf}. */
  ownerOf: (parameters: Bound<OwnerOfParameters>) => Promise<OwnerOfReturnType>;
  /** See {@link pause}. */
  pause: () => Promise<PauseReturnType>;
  /** See {@link paused}. */
  paused: () => Promise<PausedReturnType>;
  /** See {@link pendingOwner}. */
  pendingOwner: (parameters: Bound<PendingOwnerParameters>) => Promise<PendingOwnerReturnType>;
  /** See {@link platformFeeBps}. */
  platformFeeBps: () => Promise<PlatformFeeBpsReturnType>;
  /** See {@link purchase}. */
  purchase: (parameters: Bound<PurchaseParameters>) => Promise<PurchaseReturnType>;
  /** See {@link estimatePurchaseCost}. */
  estimatePurchaseCost: (parameters: Bound<EstimatePurchaseCostParameters>) => Promise<EstimatePurchaseCostReturnType>;
  /** See {@link recordInstall}. */
  recordInstall: (parameters: Bound<RecordInstallParameters>) => Promise<RecordInstallReturnType>;
  /** See {@link registerTemplate}. */
  registerTemplate: (parameters: Bound<RegisterTemplateParameters>) => Promise<RegisterTemplateReturnType>;
  /** See {@link renounceOwnership}. */
  renounceOwnership: (parameters: Bound<RenounceOwnershipParameters>) => Promise<RenounceOwnershipReturnType>;
  /** See {@link revokeLicense}. */
  revokeLicense: (parameters: Bound<RevokeLicenseParameters>) => Promise<RevokeLicenseReturnType>;
  /** See {@link royaltyInfo}. */
  royaltyInfo: (parameters: Bound<RoyaltyInfoParameters>) => Promise<RoyaltyInfoReturnType>;
  /** See {@link royaltyOf}. */
  royaltyOf: (parameters: Bound<RoyaltyOfParameters>) => Promise<RoyaltyOfReturnType>;
  /** See {@link safeTransferLicense}. */
  safeTransferLicense: (parameters: Bound<SafeTransferLicenseParameters>) => Promise<SafeTransferLicenseReturnType>;
  /** See {@link setApprovalForAll}. */
  setApprovalForAll: (parameters: Bound<SetApprovalForAllParameters>) => Promise<SetApprovalForAllReturnType>;
  /** See {@link setMarketplace}. */
  setMarketplace: (parameters: Bound<SetMarketplaceParameters>) => Promise<SetMarketplaceReturnType>;
  /** See {@link setPlatformFee}. */
  setPlatformFee: (parameters: Bound<SetPlatformFeeParameters>) => Promise<SetPlatformFeeReturnType>;
  /** See {@link surplus}. */
  surplus: () => Promise<SurplusReturnType>;
  /** See {@link sweepSurplus}. */
  sweepSurplus: (parameters: Bound<SweepSurplusParameters>) => Promise<SweepSurplusReturnType>;
  /** See {@link templateCount}. */
  templateCount: () => Promise<TemplateCountReturnType>;
  /** See {@link tokenURI}. */
  tokenURI: (parameters: Bound<TokenURIParameters>) => Promise<TokenURIReturnType>;
  /** See {@link totalHeld}. */
  totalHeld: () => Promise<TotalHeldReturnType>;
  /** See {@link totalMinted}. */
  totalMinted: () => Promise<TotalMintedReturnType>;
  /** See {@link transferLicense}. */
  transferLicense: (parameters: Bound<TransferLicenseParameters>) => Promise<TransferLicenseReturnType>;
  /** See {@link transferOwnership}. */
  transferOwnership: (parameters: Bound<TransferOwnershipParameters>) => Promise<TransferOwnershipReturnType>;
  /** See {@link unpause}. */
  unpause: () => Promise<UnpauseReturnType>;
  /** See {@link updateTemplate}. */
  updateTemplate: (parameters: Bound<UpdateTemplateParameters>) => Promise<UpdateTemplateReturnType>;
  /** See {@link validLicenseCount}. */
  validLicenseCount: (parameters: Bound<ValidLicenseCountParameters>) => Promise<ValidLicenseCountReturnType>;
  /** See {@link withdraw}. */
  withdraw: () => Promise<WithdrawReturnType>;
  /** See {@link withdrawFees}. */
  withdrawFees: (parameters: Bound<WithdrawFeesParameters>) => Promise<WithdrawFeesReturnType>;
  /** See {@link withdrawTo}. */
  withdrawTo: (parameters: Bound<WithdrawToParameters>) => Promise<WithdrawToReturnType>;
};

/**
 * Binds the marketplace actions to one deployment, for viem's `client.extend`. Reads work on any client; writes
 * need the client's `account` (a wallet client, or one extended with both public and wallet actions).
 * Addresses are validated here, once.
 *
 * @example
 * import { createWalletClient, http, parseEther } from "viem";
 * import { hardhat } from "viem/chains";
 * import { marketplaceActions } from "@muster/sdk";
 *
 * const client = createWalletClient({ account, chain: hardhat, transport: http() }).extend(marketplaceActions(addresses));
 * const { result: templateId } = await client.registerTemplate({ metadataURI: "ipfs://…", price: parseEther("0.01"), royaltyBps: 500 });
 * await client.purchase({ templateId, maxPrice: parseEther("0.01") });
 */
export function marketplaceActions(addresses: MarketplaceAddresses) {
  const bound = checkMarketplaceAddresses(addresses);
  // Generic over the client's transport, chain and account so that `extend` accepts it for any client.
  return <transport extends Transport, chain extends Chain | undefined, account extends Account | undefined>(
    client: Client<transport, chain, account>,
  ): MarketplaceActions => ({
    marketplaceAddresses: bound,
    acceptOwnership: (parameters) => acceptOwnership(client, { ...parameters, addresses: bound }),
    accruedFees: () => accruedFees(client, { addresses: bound }),
    approve: (parameters) => approve(client, { ...parameters, addresses: bound }),
    balanceOf: (parameters) => balanceOf(client, { ...parameters, addresses: bound }),
    deactivateTemplate: (parameters) => deactivateTemplate(client, { ...parameters, addresses: bound }),
    getApproved: (parameters) => getApproved(client, { ...parameters, addresses: bound }),
    getLicense: (parameters) => getLicense(client, { ...parameters, addresses: bound }),
    getMarketplaceEvents: (parameters) => getMarketplaceEvents(client, { ...parameters, addresses: bound }),
    getTemplate: (parameters) => getTemplate(client, { ...parameters, addresses: bound }),
    getTemplatesByCreator: (parameters) => getTemplatesByCreator(client, { ...parameters, addresses: bound }),
    hasLicense: (parameters) => hasLicense(client, { ...parameters, addresses: bound }),
    heldBalanceOf: (parameters) => heldBalanceOf(client, { ...parameters, addresses: bound }),
    holdsValidLicense: (parameters) => holdsValidLicense(client, { ...parameters, addresses: bound }),
    isApprovedForAll: (parameters) => isApprovedForAll(client, { ...parameters, addresses: bound }),
    licensesOf: (parameters) => licensesOf(client, { ...parameters, addresses: bound }),
    marketplaceOf: (parameters) => marketplaceOf(client, { ...parameters, addresses: bound }),
    mint: (parameters) => mint(client, { ...parameters, addresses: bound }),
    owner: (parameters) => owner(client, { ...parameters, addresses: bound }),
    ownerOf: (parameters) => ownerOf(client, { ...parameters, addresses: bound }),
    pause: () => pause(client, { addresses: bound }),
    paused: () => paused(client, { addresses: bound }),
    pendingOwner: (parameters) => pendingOwner(client, { ...parameters, addresses: bound }),
    platformFeeBps: () => platformFeeBps(client, { addresses: bound }),
    purchase: (parameters) => purchase(client, { ...parameters, addresses: bound }),
    estimatePurchaseCost: (parameters) => estimatePurchaseCost(client, { ...parameters, addresses: bound }),
    recordInstall: (parameters) => recordInstall(client, { ...parameters, addresses: bound }),
    registerTemplate: (parameters) => registerTemplate(client, { ...parameters, addresses: bound }),
    renounceOwnership: (parameters) => renounceOwnership(client, { ...parameters, addresses: bound }),
    revokeLicense: (parameters) => revokeLicense(client, { ...parameters, addresses: bound }),
    royaltyInfo: (parameters) => royaltyInfo(client, { ...parameters, addresses: bound }),
    royaltyOf: (parameters) => royaltyOf(client, { ...parameters, addresses: bound }),
    safeTransferLicense: (parameters) => safeTransferLicense(client, { ...parameters, addresses: bound }),
    setApprovalForAll: (parameters) => setApprovalForAll(client, { ...parameters, addresses: bound }),
    setMarketplace: (parameters) => setMarketplace(client, { ...parameters, addresses: bound }),
    setPlatformFee: (parameters) => setPlatformFee(client, { ...parameters, addresses: bound }),
    surplus: () => surplus(client, { addresses: bound }),
    sweepSurplus: (parameters) => sweepSurplus(client, { ...parameters, addresses: bound }),
    templateCount: () => templateCount(client, { addresses: bound }),
    tokenURI: (parameters) => tokenURI(client, { ...parameters, addresses: bound }),
    totalHeld: () => totalHeld(client, { addresses: bound }),
    totalMinted: () => totalMinted(client, { addresses: bound }),
    transferLicense: (parameters) => transferLicense(client, { ...parameters, addresses: bound }),
    transferOwnership: (parameters) => transferOwnership(client, { ...parameters, addresses: bound }),
    unpause: () => unpause(client, { addresses: bound }),
    updateTemplate: (parameters) => updateTemplate(client, { ...parameters, addresses: bound }),
    validLicenseCount: (parameters) => validLicenseCount(client, { ...parameters, addresses: bound }),
    withdraw: () => withdraw(client, { addresses: bound }),
    withdrawFees: (parameters) => withdrawFees(client, { ...parameters, addresses: bound }),
    withdrawTo: (parameters) => withdrawTo(client, { ...parameters, addresses: bound }),
  });
}
