// AES-256-GCM sealing of one secret value. The secret's identity (id and name) is the
// additional authenticated data, so a ciphertext copied onto another row fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export const IV_BYTES = 16; // spec: 128-bit IV
export const TAG_BYTES = 16; // spec: 128-bit tag

/** What is stored for one secret; all lower-case hex. */
export interface Sealed {
  ciphertext: string;
  iv: string;
  tag: string;
}

/** The identity a sealed value is bound to. */
export interface SecretIdentity {
  id: string;
  name: string;
}

/** Thrown when a sealed value does not open: altered, truncated or moved. */
export class SealBrokenError extends Error {
  constructor() {
    super("sealed value does not authenticate");
    this.name = "SealBrokenError";
  }
}

function aad({ id, name }: SecretIdentity): Buffer {
  return Buffer.from(`muster-vault/v1\u0000${id}\u0000${name}`, "utf8");
}

export function seal(key: Buffer, identity: SecretIdentity, plaintext: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(identity));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { ciphertext: ciphertext.toString("hex"), iv: iv.toString("hex"), tag: cipher.getAuthTag().toString("hex") };
}

const hexOf = (value: unknown, bytes?: number) =>
  typeof value === "string" && /^(?:[0-9a-f]{2})*$/.test(value) && (bytes === undefined || value.length === bytes * 2);

/** Opens a sealed value; throws {@link SealBrokenError} for anything that does not authenticate. */
export function open(key: Buffer, identity: SecretIdentity, sealed: Sealed): string {
  // Buffer.from(hex) silently drops bad digits and odd tails, so shapes are checked first;
  // a short tag must never be accepted (GCM would otherwise verify a truncated tag).
  if (!hexOf(sealed.iv, IV_BYTES) || !hexOf(sealed.tag, TAG_BYTES) || !hexOf(sealed.ciphertext)) throw new SealBrokenError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "hex"), { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(identity));
    decipher.setAuthTag(Buffer.from(sealed.tag, "hex"));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "hex")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealBrokenError();
  }
}
