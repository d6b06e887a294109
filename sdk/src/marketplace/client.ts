import type { Abi, Account, Address, Chain, Hash, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";
import { licenseTokenAbi } from "../abi/license-token.ts";
import { marketplaceAbi } from "../abi/marketplace.ts";
import { templateRegistryAbi } from "../abi/template-registry.ts";
import { marketplaceSystemAbi } from "./abi.ts";
import {
  getMarketplaceDeployment,
  loadMarketplaceDeployments,
  type MarketplaceAddresses,
  type MarketplaceDeployments,
} from "./deployments.ts";
import {
  MarketplacePriceAboveLimitError,
  MarketplaceTransactionError,
  MarketplaceValidationError,
  MarketplaceWalletRequiredError,
  toMarketplaceError,
} from "./errors.ts";
import { decodeMarketplaceEvents, type MarketplaceEvent } from "./events.ts";
import { MARKETPLACE_LIMITS, checkAddress, checkBps, checkId, checkMetadataURI, checkWei } from "./validate.ts";

/** A template as the registry returns it. */
export interface Template {
  id: bigint;
  creator: Address;
  metadataURI: string;
  price: bigint;
  royaltyBps: number;
  active: boolean;
  installs: bigint;
  createdAt: bigint;
}

/** A license record as the token returns it. */
export interface License {
  templateId: bigint;
  originalBuyer: Address;
  purchasedAt: bigint;
  revoked: boolean;
}

/** What every write returns once its transaction is mined. */
export interface WriteResult<T = void> {
  hash: Hash;
  receipt: TransactionReceipt;
  /** The function's return value, from the simulation that preceded sending. */
  result: T;
  /** Decoded events of the three contracts in the receipt. */
  events: MarketplaceEvent[];
}

/** Which of the three contracts an owner-level call targets. */
export type MarketplaceContract = keyof MarketplaceAddresses;

export interface MarketplaceClientConfig {
  publicClient: PublicClient<Transport, Chain | undefined>;
  /** Needed for writes; must carry an account. */
  walletClient?: WalletClient<Transport, Chain | undefined, Account | undefined>;
  addresses: MarketplaceAddresses;
}

const ABIS: Record<MarketplaceContract, Abi> = {
  templateRegistry: templateRegistryAbi,
  licenseToken: licenseTokenAbi,
  marketplace: marketplaceAbi,
};

/**
 * Typed client for the template marketplace: every contract function, inputs validated before sending,
 * writes simulated before they are sent, custom errors surfaced by name as {@link MarketplaceContractError}.
 *
 * @example
 * const market = createMarketplaceClient({ publicClient, walletClient, addresses });
 * const { result: templateId } = await market.registerTemplate({ metadataURI: "ipfs://…", price: parseEther("0.01"), royaltyBps: 500 });
 * await market.purchase({ templateId });
 */
export function createMarketplaceClient(config: MarketplaceClientConfig) {
  const { publicClient, walletClient } = config;
  const addresses: MarketplaceAddresses = {
    templateRegistry: checkAddress("addresses.templateRegistry", config.addresses.templateRegistry),
    licenseToken: checkAddress("addresses.licenseToken", config.addresses.licenseToken),
    marketplace: checkAddress("addresses.marketplace", config.addresses.marketplace),
  };

  async function read<T>(contract: MarketplaceContract, functionName: string, args: readonly unknown[] = []): Promise<T> {
    try {
      return (await publicClient.readContract({
        address: addresses[contract],
        abi: [...ABIS[contract], ...marketplaceSystemAbi],
        functionName,
        args,
      })) as T;
    } catch (error) {
      throw toMarketplaceError(error);
    }
  }

  async function write<T = void>(
    contract: MarketplaceContract,
    functionName: string,
    args: readonly unknown[] = [],
    value?: bigint,
  ): Promise<WriteResult<T>> {
    const account = walletClient?.account;
    if (!walletClient || !account) throw new MarketplaceWalletRequiredError();
    try {
      const { request, result } = await publicClient.simulateContract({
        address: addresses[contract],
        abi: [...ABIS[contract], ...marketplaceSystemAbi],
        functionName,
        args,
        account,
        ...(value !== undefined ? { value } : {}),
      });
      const hash = await walletClient.writeContract({ ...request, account, chain: publicClient.chain ?? null } as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new MarketplaceTransactionError(`transaction ${hash} reverted`);
      return { hash, receipt, result: result as T, events: decodeMarketplaceEvents(receipt.logs, addresses) };
    } catch (error) {
      throw toMarketplaceError(error);
    }
  }

  const templateId = (value: bigint | number) => checkId("templateId", value, MARKETPLACE_LIMITS.maxTemplateId);
  const tokenId = (value: bigint | number) => checkId("tokenId", value);

  return {
    addresses,

    // ------------------------------------------------------------ registry
    /** Publishes a template owned by the wallet's account; `result` is the new template id. */
    async registerTemplate(input: { metadataURI: string; price: bigint; royaltyBps: number }) {
      const args = [
        checkMetadataURI(input.metadataURI),
        checkWei("price", input.price, MARKETPLACE_LIMITS.maxPrice),
        checkBps("royaltyBps", input.royaltyBps, MARKETPLACE_LIMITS.maxRoyaltyBps),
      ] as const;
      return write<bigint>("templateRegistry", "registerTemplate", args);
    },
    /** Changes the metadata URI and price of one of the account's active templates. */
    async updateTemplate(input: { templateId: bigint | number; metadataURI: string; price: bigint }) {
      const args = [templateId(input.templateId), checkMetadataURI(input.metadataURI), checkWei("price", input.price, MARKETPLACE_LIMITS.maxPrice)];
      return write("templateRegistry", "updateTemplate", args);
    },
    /** Deactivates one of the account's templates for good. */
    async deactivateTemplate(id: bigint | number) {
      return write("templateRegistry", "deactivateTemplate", [templateId(id)]);
    },
    /** Marketplace-only: counts an install. Exposed for completeness; any other caller gets `NotMarketplace`. */
    async recordInstall(input: { templateId: bigint | number; buyer: Address }) {
      return write<readonly [Address, bigint]>("templateRegistry", "recordInstall", [templateId(input.templateId), checkAddress("buyer", input.buyer)]);
    },
    /** The template record; `TemplateNotFound` for unknown ids. */
    async getTemplate(id: bigint | number) {
      return read<Template>("templateRegistry", "getTemplate", [templateId(id)]);
    },
    /** Ids of the templates `creator` registered, oldest first. */
    async getTemplatesByCreator(creator: Address) {
      return read<readonly bigint[]>("templateRegistry", "getTemplatesByCreator", [checkAddress("creator", creator, { allowZero: true })]);
    },
    /** Number of registered templates (also the highest id). */
    async templateCount() {
      return read<bigint>("templateRegistry", "templateCount");
    },
    /** Creator and royalty basis points of a template. */
    async royaltyOf(id: bigint | number) {
      const [creator, royaltyBps] = await read<readonly [Address, number]>("templateRegistry", "royaltyOf", [templateId(id)]);
      return { creator, royaltyBps };
    },

    // ------------------------------------------------------------ marketplace
    /**
     * Buys a license. Sends the price read from the chain, or `value` if given (the excess is refunded; the
     * contract never charges more than the price, so `value` is also the most the purchase can cost).
     * With `maxPrice`, refuses before sending if the template now costs more, and refuses a `value` above
     * `maxPrice`: the contract charges the price at the time the transaction is mined, up to the value sent,
     * so the value sent is what bounds the cost if the creator raises the price meanwhile.
     */
    async purchase(input: { templateId: bigint | number; maxPrice?: bigint; value?: bigint }) {
      const id = templateId(input.templateId);
      const maxPrice = input.maxPrice === undefined ? undefined : checkWei("maxPrice", input.maxPrice);
      const value = input.value === undefined ? undefined : checkWei("value", input.value);
      if (maxPrice !== undefined && value !== undefined && value > maxPrice) {
        throw new MarketplaceValidationError("value", `must not exceed maxPrice (${maxPrice} wei): the value sent is the most a purchase can cost`);
      }
      const { price } = await read<Template>("templateRegistry", "getTemplate", [id]);
      if (maxPrice !== undefined && price > maxPrice) throw new MarketplacePriceAboveLimitError(id, price, maxPrice);
      // `value` is sent as given: below the price the simulation fails with `InsufficientPayment`.
      return write<bigint>("marketplace", "purchase", [id], value ?? price);
    },
    /** Whether `user` holds a valid license for the template. */
    async hasLicense(user: Address, id: bigint | number) {
      return read<boolean>("marketplace", "hasLicense", [checkAddress("user", user, { allowZero: true }), templateId(id)]);
    },
    /** Owner only: sets the platform fee (basis points, at most 1000). */
    async setPlatformFee(feeBps: number) {
      return write("marketplace", "setPlatformFee", [checkBps("feeBps", feeBps, MARKETPLACE_LIMITS.maxPlatformFeeBps)]);
    },
    async platformFeeBps() {
      return read<number>("marketplace", "platformFeeBps");
    },
    /** Owner only: sends the accrued platform fees to the owner. */
    async withdrawFees() {
      return write("marketplace", "withdrawFees");
    },
    async accruedFees() {
      return read<bigint>("marketplace", "accruedFees");
    },
    /** Balance held for `account` because a payment to it could not be sent. */
    async heldBalanceOf(account: Address) {
      return read<bigint>("marketplace", "heldBalanceOf", [checkAddress("account", account, { allowZero: true })]);
    },
    async totalHeld() {
      return read<bigint>("marketplace", "totalHeld");
    },
    /** Withdraws the account's held balance to itself. */
    async withdraw() {
      return write("marketplace", "withdraw");
    },
    /** Withdraws the account's held balance to `to`. */
    async withdrawTo(to: Address) {
      return write("marketplace", "withdrawTo", [checkAddress("to", to)]);
    },
    /** Owner only: stops purchases (withdrawals keep working). */
    async pause() {
      return write("marketplace", "pause");
    },
    /** Owner only: resumes purchases. */
    async unpause() {
      return write("marketplace", "unpause");
    },
    async paused() {
      return read<boolean>("marketplace", "paused");
    },

    // ------------------------------------------------------------ license token
    /** Marketplace-only: mints a license. Exposed for completeness; any other caller gets `NotMarketplace`. */
    async mint(input: { to: Address; templateId: bigint | number }) {
      return write<bigint>("licenseToken", "mint", [checkAddress("to", input.to), templateId(input.templateId)]);
    },
    async holdsValidLicense(user: Address, id: bigint | number) {
      return read<boolean>("licenseToken", "holdsValidLicense", [checkAddress("user", user, { allowZero: true }), templateId(id)]);
    },
    async validLicenseCount(user: Address, id: bigint | number) {
      return read<bigint>("licenseToken", "validLicenseCount", [checkAddress("user", user, { allowZero: true }), templateId(id)]);
    },
    /** Template ids `user` holds a valid license for (no duplicates). */
    async licensesOf(user: Address) {
      return read<readonly bigint[]>("licenseToken", "licensesOf", [checkAddress("user", user, { allowZero: true })]);
    },
    async getLicense(id: bigint | number) {
      return read<License>("licenseToken", "getLicense", [tokenId(id)]);
    },
    /** Owner only: revokes a license token. */
    async revokeLicense(id: bigint | number) {
      return write("licenseToken", "revokeLicense", [tokenId(id)]);
    },
    async totalMinted() {
      return read<bigint>("licenseToken", "totalMinted");
    },
    async balanceOf(owner: Address) {
      return read<bigint>("licenseToken", "balanceOf", [checkAddress("owner", owner)]);
    },
    async ownerOf(id: bigint | number) {
      return read<Address>("licenseToken", "ownerOf", [tokenId(id)]);
    },
    /** Moves a license token (and the license) from `from` to `to`. */
    async transferLicense(input: { from: Address; to: Address; tokenId: bigint | number }) {
      return write("licenseToken", "transferFrom", [checkAddress("from", input.from), checkAddress("to", input.to), tokenId(input.tokenId)]);
    },
    /** Like {@link transferLicense}, checking that a contract recipient accepts ERC-721 tokens. */
    async safeTransferLicense(input: { from: Address; to: Address; tokenId: bigint | number; data?: `0x${string}` }) {
      return write("licenseToken", "safeTransferFrom", [
        checkAddress("from", input.from),
        checkAddress("to", input.to),
        tokenId(input.tokenId),
        input.data ?? "0x",
      ]);
    },
    async approve(input: { to: Address; tokenId: bigint | number }) {
      return write("licenseToken", "approve", [checkAddress("to", input.to, { allowZero: true }), tokenId(input.tokenId)]);
    },
    async getApproved(id: bigint | number) {
      return read<Address>("licenseToken", "getApproved", [tokenId(id)]);
    },
    async setApprovalForAll(input: { operator: Address; approved: boolean }) {
      return write("licenseToken", "setApprovalForAll", [checkAddress("operator", input.operator), input.approved]);
    },
    async isApprovedForAll(owner: Address, operator: Address) {
      return read<boolean>("licenseToken", "isApprovedForAll", [checkAddress("owner", owner, { allowZero: true }), checkAddress("operator", operator, { allowZero: true })]);
    },
    async tokenURI(id: bigint | number) {
      return read<string>("licenseToken", "tokenURI", [tokenId(id)]);
    },
    /** ERC-2981: who receives a royalty on a resale of the token at `salePrice`, and how much. */
    async royaltyInfo(id: bigint | number, salePrice: bigint) {
      const [receiver, amount] = await read<readonly [Address, bigint]>("licenseToken", "royaltyInfo", [tokenId(id), checkWei("salePrice", salePrice)]);
      return { receiver, amount };
    },

    // ------------------------------------------------------------ administration (any of the three contracts)
    async owner(contract: MarketplaceContract) {
      return read<Address>(contract, "owner");
    },
    async pendingOwner(contract: MarketplaceContract) {
      return read<Address>(contract, "pendingOwner");
    },
    /** Owner only: starts a two-step ownership transfer of `contract`. */
    async transferOwnership(contract: MarketplaceContract, newOwner: Address) {
      return write(contract, "transferOwnership", [checkAddress("newOwner", newOwner, { allowZero: true })]);
    },
    /** Pending owner only: completes the ownership transfer of `contract`. */
    async acceptOwnership(contract: MarketplaceContract) {
      return write(contract, "acceptOwnership");
    },
    /** Disabled on all three contracts: always reverts with `RenounceOwnershipDisabled` (owner) or `OwnableUnauthorizedAccount`. */
    async renounceOwnership(contract: MarketplaceContract) {
      return write(contract, "renounceOwnership");
    },
    /** Owner only: points the registry or the license token at a marketplace. */
    async setMarketplace(contract: "templateRegistry" | "licenseToken", marketplace: Address) {
      return write(contract, "setMarketplace", [checkAddress("marketplace", marketplace)]);
    },
    /** The marketplace the registry or the license token accepts calls from. */
    async marketplaceOf(contract: "templateRegistry" | "licenseToken") {
      return read<Address>(contract, "marketplace");
    },

    // ------------------------------------------------------------ events
    /** Decodes the events of the three contracts found in `receipt` logs. */
    decodeEvents(logs: TransactionReceipt["logs"]) {
      return decodeMarketplaceEvents(logs, addresses);
    },
    /** Fetches and decodes the events of the three contracts in a block range. */
    async getEvents(range: { fromBlock: bigint; toBlock?: bigint }) {
      try {
        const logs = await publicClient.getLogs({
          address: [addresses.templateRegistry, addresses.licenseToken, addresses.marketplace],
          fromBlock: range.fromBlock,
          toBlock: range.toBlock ?? "latest",
        });
        return decodeMarketplaceEvents(logs, addresses);
      } catch (error) {
        throw toMarketplaceError(error);
      }
    },
  };
}

/** The client returned by {@link createMarketplaceClient}. */
export type MarketplaceClient = ReturnType<typeof createMarketplaceClient>;

/**
 * Creates a client for the deployment recorded for the public client's chain in a deployments file
 * (`contracts/deployments.json`) or an already-loaded deployments object.
 */
export async function createMarketplaceClientFromDeployments(
  config: Omit<MarketplaceClientConfig, "addresses"> & { deployments: string | URL | MarketplaceDeployments },
): Promise<MarketplaceClient> {
  const deployments =
    typeof config.deployments === "string" || config.deployments instanceof URL
      ? await loadMarketplaceDeployments(config.deployments)
      : config.deployments;
  const chainId = await config.publicClient.getChainId();
  const { templateRegistry, licenseToken, marketplace } = getMarketplaceDeployment(deployments, chainId);
  return createMarketplaceClient({ ...config, addresses: { templateRegistry, licenseToken, marketplace } });
}
