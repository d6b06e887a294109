// The optional Ed25519 device identity (reference §2.2). A gateway grants a device-less
// backend client its scopes only on loopback; from another host it needs a device that
// signs the connect challenge and is paired once (`openclaw devices approve <id>`). The key
// lives in MUSTER_HOME, readable by the owner only.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateFiles } from "../private-files.ts";

export interface DeviceIdentity {
  /** Hex SHA-256 of the raw 32-byte public key. */
  id: string;
  /** The raw public key, base64url. */
  publicKey: string;
  /** The device token the gateway issued on pairing, when it sent one. */
  deviceToken: string | null;
  sign(payload: string): string;
  /** Keeps a device token issued in `hello-ok.auth` for later connects. */
  rememberDeviceToken(token: string): void;
}

/** The `device` block of `connect.params` and what the signature covers. */
export interface DeviceSignatureInput {
  clientId: string;
  clientMode: string;
  role: string;
  scopes: string[];
  /** `auth.token ?? auth.deviceToken ?? ""`. */
  token: string;
  nonce: string;
  signedAt: number;
  platform: string;
  deviceFamily?: string;
}

/** One identity per gateway link: the default link keeps the file it always had, another link `gateway-device-<name>.json`. */
export const deviceFile = (home: string, link = "default") => join(home, link === "default" ? "gateway-device.json" : `gateway-device-${link}.json`);

interface StoredIdentity {
  version: 1;
  id: string;
  publicKey: string;
  privateKeyPem: string;
  deviceToken?: string;
}

/** Loads the identity from MUSTER_HOME, creating it (0600) on first use. */
export function loadDeviceIdentity(home: string, link = "default"): DeviceIdentity {
  const path = deviceFile(home, link);
  let stored: StoredIdentity;
  if (existsSync(path)) {
    stored = JSON.parse(readFileSync(path, "utf8")) as StoredIdentity;
  } else {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
    stored = {
      version: 1,
      id: createHash("sha256").update(raw).digest("hex"),
      publicKey: raw.toString("base64url"),
      privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    };
    save(path, stored);
  }
  ensurePrivateFiles([path]);
  const key = createPrivateKey(stored.privateKeyPem);
  // A file edited by hand must still describe one key pair.
  const derived = createPublicKey(key).export({ format: "der", type: "spki" }).subarray(-32).toString("base64url");
  if (derived !== stored.publicKey) throw new Error(`${path}: the public key does not match the private key`);
  return {
    id: stored.id,
    publicKey: stored.publicKey,
    get deviceToken() {
      return stored.deviceToken ?? null;
    },
    sign: (payload) => sign(null, Buffer.from(payload, "utf8"), key).toString("base64url"),
    rememberDeviceToken(token) {
      if (stored.deviceToken === token) return;
      stored = { ...stored, deviceToken: token };
      save(path, stored);
    },
  };
}

function save(path: string, stored: StoredIdentity): void {
  writeFileSync(path, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
}

/** The v3 payload string exactly as the reference gives it. */
export function deviceSignaturePayload(deviceId: string, input: DeviceSignatureInput): string {
  return [
    "v3",
    deviceId,
    input.clientId,
    input.clientMode,
    input.role,
    input.scopes.join(","),
    String(input.signedAt),
    input.token,
    input.nonce,
    input.platform.toLowerCase(),
    (input.deviceFamily ?? "").toLowerCase(),
  ].join("|");
}

/** The `device` block for `connect.params`. */
export function deviceBlock(identity: DeviceIdentity, input: DeviceSignatureInput) {
  return {
    id: identity.id,
    publicKey: identity.publicKey,
    signature: identity.sign(deviceSignaturePayload(identity.id, input)),
    signedAt: input.signedAt,
    nonce: input.nonce,
  };
}
