import type { Address, Hex } from "viem";
import { agentsErrors } from "../errors.ts";
import type { AgentsConfig } from "../config.ts";
import type { LicenceChallenges } from "./licence-challenges.ts";

/** What an install request carries to prove it controls the buyer address (`POST /api/packs` `proof`). */
export interface LicenceProofInput {
  nonce: string;
  /** Unix seconds, as signed; at most the challenge's expiry. */
  expiresAt: number;
  signature: string;
}

export interface LicenceRequest {
  pack: string;
  templateId: string;
  buyer: string | undefined;
  proof: LicenceProofInput | undefined;
}

/**
 * Whether the requester may install a pack tied to a marketplace template. It must prove that it controls the
 * buyer address (an EIP-712 signature over this Muster's instance id, the pack, the template, a nonce this
 * server issued and an expiry; contract wallets through ERC-1271), and that address must hold a valid licence
 * on the configured chain (`holdsValidLicense`). A bare address is 403 `LICENSE_PROOF_REQUIRED`; a bad,
 * expired or replayed proof 403 `LICENSE_PROOF_INVALID` / `_EXPIRED` / `_REPLAYED`; no licence 403
 * `LICENSE_REQUIRED`; a chain that cannot be asked 503 `LICENSE_CHECK_UNAVAILABLE`.
 */
export async function assertLicence(config: AgentsConfig["marketplace"], challenges: LicenceChallenges, request: LicenceRequest): Promise<void> {
  const { pack: name, templateId, buyer, proof } = request;
  if (!proof) throw agentsErrors.LICENSE_PROOF_REQUIRED({ name, templateId, reason: buyer ? `the request names ${buyer} but does not prove it controls it` : "the request carries no proof" });
  if (!buyer) throw agentsErrors.LICENSE_PROOF_REQUIRED({ name, templateId, reason: "the proof needs the buyer address that holds the licence" });
  if (!config) throw agentsErrors.LICENSE_CHECK_UNAVAILABLE({ reason: "no marketplace chain is configured (agents.marketplace)" });

  const issued = await challenges.spend(name, proof.nonce);
  if (issued.pack !== name || issued.templateId !== templateId) {
    throw agentsErrors.LICENSE_PROOF_INVALID({ name, reason: `its challenge was issued for pack ${issued.pack} (template ${issued.templateId})` });
  }
  if (issued.holder !== buyer.toLowerCase()) throw agentsErrors.LICENSE_PROOF_INVALID({ name, reason: `its challenge was issued for holder ${issued.holder}` });
  if (proof.expiresAt > issued.expiresAt) throw agentsErrors.LICENSE_PROOF_INVALID({ name, reason: "it expires later than its challenge allows" });
  const now = Math.floor(Date.now() / 1000);
  if (now >= proof.expiresAt) throw agentsErrors.LICENSE_PROOF_EXPIRED({ name, expiresAt: new Date(proof.expiresAt * 1000).toISOString() });

  // viem and the SDK are ~500 modules: loaded by the first licence check, not at start.
  const [{ createPublicClient, http }, sdk, instanceId] = await Promise.all([import("viem"), import("@muster/sdk"), challenges.instanceId()]);
  const client = createPublicClient({ transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0 }) });
  const addresses = config.addresses as { templateRegistry: Address; licenseToken: Address; marketplace: Address };
  const holder = buyer as Address;
  const unavailable = (error: unknown) => agentsErrors.LICENSE_CHECK_UNAVAILABLE({ reason: (error as { shortMessage?: string }).shortMessage ?? "the chain did not answer" }, { cause: error });

  let signed: boolean;
  try {
    // `mode: "eoa"` recovers a key's signature locally first; anything else (a contract wallet) is asked on the
    // chain through viem's ERC-6492 validator, which calls the wallet's ERC-1271 `isValidSignature`.
    signed = await client.verifyTypedData({
      address: holder,
      domain: sdk.packLicenceProofDomain(instanceId, addresses.licenseToken),
      types: sdk.packLicenceProofTypes,
      primaryType: "PackLicenceProof",
      message: { pack: name, templateId: BigInt(templateId), holder, nonce: issued.nonce, expiresAt: BigInt(proof.expiresAt) },
      signature: proof.signature as Hex,
      mode: "eoa",
    });
  } catch (error) {
    throw unavailable(error);
  }
  if (!signed) throw agentsErrors.LICENSE_PROOF_INVALID({ name, reason: `the signature is not ${buyer}'s for this pack, challenge and Muster (neither its key nor, for a contract wallet, ERC-1271 accepts it)` });

  let holds: boolean;
  try {
    holds = await sdk.holdsValidLicense(client, { addresses, user: holder, templateId: BigInt(templateId) });
  } catch (error) {
    throw unavailable(error);
  }
  if (!holds) throw agentsErrors.LICENSE_REQUIRED({ name, templateId, reason: `${buyer} holds no valid licence for it` });
}
