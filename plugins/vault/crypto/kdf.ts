// Key derivation: scrypt over the passphrase with a random salt stored once in the
// database, and a key check value that tells a wrong passphrase from a right one
// without decrypting (or touching) any stored secret.
import { createHmac, randomBytes, scrypt } from "node:crypto";
import { constantTimeEqual } from "@muster/plugin";

/** scrypt cost parameters; stored with the salt so stronger ones can be adopted later. */
export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

/** DESIGN §6: N=2^15, r=8, p=1, 32-byte key. */
export const DEFAULT_KDF: KdfParams = { N: 2 ** 15, r: 8, p: 1 };
export const KEY_BYTES = 32;
export const SALT_BYTES = 16;

const KEY_CHECK_LABEL = "muster-vault key check v1";

/** scrypt needs about 128·N·r bytes; Node's 32 MiB default maxmem refuses N=2^15, r=8 exactly. */
function maxmem({ N, r, p }: KdfParams): number {
  return 128 * N * r * (p + 1) + 16 * 1024 * 1024;
}

/** Derives the 256-bit vault key. Runs off the main thread (libuv pool). */
export function deriveKey(passphrase: string, salt: Buffer, params: KdfParams = DEFAULT_KDF): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, KEY_BYTES, { N: params.N, r: params.r, p: params.p, maxmem: maxmem(params) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export function newSalt(): Buffer {
  return randomBytes(SALT_BYTES);
}

/** HMAC of a fixed label under the key: reveals nothing about the key, identifies it. */
export function keyCheckValue(key: Buffer): string {
  return createHmac("sha256", key).update(KEY_CHECK_LABEL).digest("hex");
}

/** Constant-time comparison of a key against a stored key check value. */
export function matchesKeyCheck(key: Buffer, stored: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(stored)) return false;
  return constantTimeEqual(keyCheckValue(key), stored);
}

/** Parses stored scrypt parameters, refusing anything implausible. */
export function parseKdfParams(raw: string | undefined): KdfParams | null {
  if (raw === undefined) return null;
  try {
    const v = JSON.parse(raw) as Partial<KdfParams>;
    const ok = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;
    if (ok(v.N, 2 ** 22) && ((v.N as number) & ((v.N as number) - 1)) === 0 && ok(v.r, 64) && ok(v.p, 16)) return { N: v.N!, r: v.r!, p: v.p! };
  } catch {
    // Falls through: unreadable parameters are reported by the caller.
  }
  return null;
}
