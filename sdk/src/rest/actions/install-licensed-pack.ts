import type { Account, Address } from "viem";
import { signPackLicence, type SignPackLicenceErrorType } from "../../marketplace/actions/sign-pack-licence.ts";
import { MarketplaceWalletRequiredError } from "../../marketplace/errors.ts";
import type { MarketplaceClient } from "../../marketplace/internal/client.ts";
import type { PackLicenceChallenge } from "../../marketplace/pack-licence-proof.ts";
import type { MusterClient } from "../client.ts";
import type { MusterRequestErrorType } from "../errors.ts";
import type { Operations } from "../generated/operations.ts";

/** Parameters of {@link installLicensedPack}. */
export interface InstallLicensedPackParameters {
  /** The pack's name (`packs/<file>.json` `name`). */
  name: string;
  /** A viem client with the account that signs: the licence holder's key, or a contract wallet's owner key. */
  wallet: MarketplaceClient;
  /** The address holding the licence, when it is a contract wallet (ERC-1271); defaults to the wallet's account. */
  holder?: Address;
  /** The signing account, if not the wallet client's. */
  account?: Account;
}

/** The installed pack, its agents, directories and organisation entries, and the pending registration approval. */
export type InstallLicensedPackReturnType = Operations["postPacks"]["response"];

/**
 * `MusterApiError` with `LICENSE_REQUIRED` (the holder has no valid licence), `LICENSE_PROOF_*`, `PACK_*` or
 * `LICENSE_CHECK_UNAVAILABLE`; a transport error; or a signing error ({@link signPackLicence}).
 */
export type InstallLicensedPackErrorType = MusterRequestErrorType | SignPackLicenceErrorType;

/**
 * Installs a pack tied to a marketplace template, proving the licence holder controls its address: asks the
 * server for a single-use challenge, signs it (EIP-712) with the wallet, and sends the install with the proof.
 * A bare buyer address is refused by the server (403 `LICENSE_PROOF_REQUIRED`).
 *
 * @example
 * const muster = createMusterClient({ url: "http://127.0.0.1:3333" });
 * const wallet = createWalletClient({ account: privateKeyToAccount(key), transport: http(rpcUrl) });
 * const { orgEntries } = await installLicensedPack(muster, { name: "research-squad", wallet });
 */
export async function installLicensedPack(client: MusterClient, parameters: InstallLicensedPackParameters): Promise<InstallLicensedPackReturnType> {
  const { name, wallet } = parameters;
  const account = parameters.account ?? wallet.account;
  if (!account) throw new MarketplaceWalletRequiredError();
  const holder = parameters.holder ?? account.address;
  const { challenge } = await client.postPacksLicenceChallenge({ body: { name, holder } });
  const proof = await signPackLicence(wallet, { challenge: challenge as PackLicenceChallenge, holder, account });
  return client.postPacks({ body: { name, buyer: holder, proof } });
}
