import type { Address, Hex, TypedDataDomain } from "viem";

/**
 * The EIP-712 types of a pack licence proof: the holder of a licence for `templateId` asks this Muster (the
 * domain's `salt`) to install `pack`, once (`nonce`, issued by the server) and before `expiresAt` (unix seconds).
 * The server builds the domain and message; wallets show each field to the signer.
 */
export const packLicenceProofTypes = {
  PackLicenceProof: [
    { name: "pack", type: "string" },
    { name: "templateId", type: "uint256" },
    { name: "holder", type: "address" },
    { name: "nonce", type: "bytes32" },
    { name: "expiresAt", type: "uint256" },
  ],
} as const;

/** The EIP-712 domain name of pack licence proofs. */
export const PACK_LICENCE_PROOF_NAME = "Muster pack licence";
/** The EIP-712 domain version of pack licence proofs. */
export const PACK_LICENCE_PROOF_VERSION = "1";

/**
 * The domain of a pack licence proof: bound to one Muster instance (`instanceId`, a random 32 bytes kept in its
 * database) and to the licence token the licence lives on (`verifyingContract`).
 */
export function packLicenceProofDomain(instanceId: Hex, licenseToken: Address): TypedDataDomain {
  return { name: PACK_LICENCE_PROOF_NAME, version: PACK_LICENCE_PROOF_VERSION, verifyingContract: licenseToken, salt: instanceId };
}

/** A challenge as `POST /api/packs/licence-challenge` returns it (JSON: numbers as decimal strings). */
export interface PackLicenceChallenge {
  nonce: Hex;
  /** Unix seconds; the proof is refused from then on. */
  expiresAt: number;
  typedData: {
    domain: { name: string; version: string; verifyingContract: Address; salt: Hex };
    /** As the server sent them; signing uses {@link packLicenceProofTypes}, so no server can change what is signed. */
    types: { PackLicenceProof: readonly { name: string; type: string }[] };
    primaryType: "PackLicenceProof";
    message: { pack: string; templateId: string; holder: Address; nonce: Hex; expiresAt: string };
  };
}

/** What the install request carries (`POST /api/packs` `proof`). */
export interface PackLicenceProof {
  nonce: Hex;
  expiresAt: number;
  signature: Hex;
}
