import type { Account, Address } from "viem";
import { signTypedData } from "viem/actions";
import { MarketplaceValidationError, MarketplaceWalletRequiredError } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { packLicenceProofTypes, type PackLicenceChallenge, type PackLicenceProof } from "../pack-licence-proof.ts";

/** Parameters of {@link signPackLicence}. */
export interface SignPackLicenceParameters {
  /** The challenge from `POST /api/packs/licence-challenge` (`installLicensedPack` asks for it and calls this). */
  challenge: PackLicenceChallenge;
  /**
   * The address the licence is held by, when it is not the signing account: a contract wallet (ERC-1271) whose
   * owner key signs. Defaults to the client's account; must equal the challenge's `holder`.
   */
  holder?: Address;
  /** The signing account, if not the client's. */
  account?: Account;
}

/** The proof to send with the install: the challenge's nonce and expiry, and the EIP-712 signature. */
export type SignPackLicenceReturnType = PackLicenceProof;

/** {@link MarketplaceWalletRequiredError} without an account; {@link MarketplaceValidationError} for a challenge for someone else. */
export type SignPackLicenceErrorType = MarketplaceWalletRequiredError | MarketplaceValidationError;

/**
 * Signs a pack licence challenge (EIP-712 typed data: this Muster, the pack, the template, the holder, the
 * server's single-use nonce and the expiry) with the wallet's account, proving it controls the address that
 * holds the licence. The signature is good once, for that pack, on that Muster, until `expiresAt`.
 *
 * @example
 * const { challenge } = await muster.postPacksLicenceChallenge({ body: { name: "research-squad", holder: account.address } });
 * const proof = await signPackLicence(walletClient, { challenge });
 * await muster.postPacks({ body: { name: "research-squad", buyer: account.address, proof } });
 */
export async function signPackLicence(client: MarketplaceClient, parameters: SignPackLicenceParameters): Promise<SignPackLicenceReturnType> {
  const account = parameters.account ?? client.account;
  if (!account) throw new MarketplaceWalletRequiredError();
  const { challenge } = parameters;
  const { domain, message } = challenge.typedData;
  const holder = parameters.holder ?? account.address;
  if (message.holder.toLowerCase() !== holder.toLowerCase()) {
    throw new MarketplaceValidationError("challenge", `was issued for holder ${message.holder}, not ${holder}`);
  }
  if (message.nonce !== challenge.nonce || message.expiresAt !== String(challenge.expiresAt)) {
    throw new MarketplaceValidationError("challenge", "its nonce or expiry differ from the typed data it carries");
  }
  const signature = await signTypedData(client, {
    account,
    domain,
    types: packLicenceProofTypes,
    primaryType: "PackLicenceProof",
    message: { pack: message.pack, templateId: BigInt(message.templateId), holder: message.holder, nonce: message.nonce, expiresAt: BigInt(message.expiresAt) },
  });
  return { nonce: challenge.nonce, expiresAt: challenge.expiresAt, signature };
}
