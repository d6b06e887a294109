// The connection handshake (reference §2): `connect.challenge`, the closed `connect` params,
// the shared token, protocol range, device signature and pairing, and `hello-ok` granting the
// scopes exactly as asked, or a refusal and the close code the real gateway uses.
import { createHash, createPublicKey, randomUUID, verify } from "node:crypto";
import type { GatewayErrorShape } from "../../gateway.ts";
import type { FakeConnection } from "./types.ts";

const CLIENT_IDS = new Set([
  "webchat-ui", "openclaw-control-ui", "openclaw-browser-copilot", "openclaw-tui", "webchat", "cli", "gateway-client", "openclaw-macos",
  "openclaw-linux", "openclaw-ios", "openclaw-watchos", "openclaw-android", "node-host", "openclaw-worker", "test", "fingerprint", "openclaw-probe",
]);
const CLIENT_MODES = new Set(["webchat", "cli", "ui", "backend", "node", "worker", "probe", "test"]);
const CONNECT_KEYS = new Set(["minProtocol", "maxProtocol", "client", "role", "scopes", "caps", "commands", "permissions", "pathEnv", "auth", "device", "locale", "userAgent"]);
const CLIENT_KEYS = new Set(["id", "version", "platform", "mode", "displayName", "buildId", "deviceFamily", "modelIdentifier", "timeZone", "instanceId"]);
const AUTH_KEYS = new Set(["token", "password", "deviceToken", "bootstrapToken", "approvalRuntimeToken", "agentRuntimeIdentityToken"]);
export const PREAUTH_MAX_BYTES = 64 * 1024;

/** The gateway settings and counters the handshake reads and updates. */
export interface HandshakeGateway {
  token: string;
  protocol: number;
  unavailableConnects: number;
  retryAfterMs: number;
  requireDevice: boolean;
  requirePairing: boolean;
  maxPayload: number;
  tickIntervalMs: number;
  connectAttempts: number;
  readonly approvedDevices: Set<string>;
  readonly pendingDevices: Set<string>;
}

/** What `hello-ok` reports beyond the settings. */
export interface HelloFacts {
  methods: string[];
  events: string[];
  health: unknown;
  defaultAgentId: string;
}

/** Answers a connection's first frame: authenticates it (`hello-ok`) or refuses and closes it. */
export function handshake(gateway: HandshakeGateway, conn: FakeConnection, frame: any, challenge: { nonce: string; ts: number }, hello: () => HelloFacts): void {
  const id = typeof frame?.id === "string" ? frame.id : "0";
  const refuse = (error: GatewayErrorShape, code: number) => {
    conn.send({ type: "res", id, ok: false, error });
    conn.socket.close(code, error.message.slice(0, 120));
  };
  if (frame?.type !== "req" || frame.method !== "connect") {
    return refuse({ code: "INVALID_REQUEST", message: "invalid handshake: first request must be connect" }, 1008);
  }
  gateway.connectAttempts += 1;
  const params = frame.params ?? {};
  const badKey = [...Object.keys(params)].find((k) => !CONNECT_KEYS.has(k));
  if (badKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at root: unexpected property '${badKey}'` }, 1008);
  const client = params.client ?? {};
  const badClientKey = Object.keys(client).find((k) => !CLIENT_KEYS.has(k));
  if (badClientKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at /client: unexpected property '${badClientKey}'` }, 1008);
  if (!CLIENT_IDS.has(client.id)) return refuse({ code: "INVALID_REQUEST", message: "invalid connect params: at /client/id: must be equal to one of the allowed values" }, 1008);
  if (!CLIENT_MODES.has(client.mode)) return refuse({ code: "INVALID_REQUEST", message: "invalid connect params: at /client/mode: must be equal to one of the allowed values" }, 1008);
  const auth = params.auth ?? {};
  const badAuthKey = Object.keys(auth).find((k) => !AUTH_KEYS.has(k));
  if (badAuthKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at /auth: unexpected property '${badAuthKey}'` }, 1008);
  if (gateway.unavailableConnects > 0) {
    gateway.unavailableConnects -= 1;
    return refuse(
      { code: "UNAVAILABLE", message: "gateway starting; retry shortly", retryable: true, retryAfterMs: gateway.retryAfterMs, details: { reason: "startup-sidecars" } },
      1013,
    );
  }
  const min = params.minProtocol;
  const max = params.maxProtocol;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min <= gateway.protocol && gateway.protocol <= max)) {
    return refuse(
      {
        code: "INVALID_REQUEST",
        message: "protocol mismatch",
        details: { code: "PROTOCOL_MISMATCH", clientMinProtocol: min, clientMaxProtocol: max, expectedProtocol: gateway.protocol, minimumProbeProtocol: 3 },
      },
      1002,
    );
  }
  const presented = auth.token ?? auth.password;
  if (presented !== gateway.token) {
    return refuse(
      {
        code: "INVALID_REQUEST",
        message: "unauthorized: gateway token mismatch (provide gateway auth token)",
        details: { code: "AUTH_TOKEN_MISMATCH", authReason: "token_mismatch", canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_credentials" },
      },
      1008,
    );
  }
  const role = params.role ?? "operator";
  const requested: string[] = Array.isArray(params.scopes) ? params.scopes : [];
  let deviceId: string | null = null;
  if (params.device) {
    const problem = verifyDevice(params.device, { ...params, role, scopes: requested, auth }, challenge);
    if (problem) return refuse({ code: "INVALID_REQUEST", message: `device signature invalid: ${problem}`, details: { code: "DEVICE_AUTH_INVALID" } }, 1008);
    deviceId = params.device.id as string;
    if (gateway.requirePairing && !gateway.approvedDevices.has(deviceId)) {
      gateway.pendingDevices.add(deviceId);
      return refuse({ code: "NOT_PAIRED", message: "device pairing required", details: { code: "PAIRING_REQUIRED", deviceId } }, 1008);
    }
  } else if (role === "node") {
    return refuse({ code: "NOT_PAIRED", message: "device identity required", details: { code: "DEVICE_IDENTITY_REQUIRED" } }, 1008);
  }
  // Loopback gateway-client/backend keeps its scopes without a device; a "remote" one does not.
  const scopes = !deviceId && gateway.requireDevice ? [] : requested;
  conn.authenticated = true;
  conn.scopes = scopes;
  conn.caps = Array.isArray(params.caps) ? params.caps : [];
  conn.deviceId = deviceId;
  const facts = hello();
  conn.send({
    type: "res",
    id,
    ok: true,
    payload: {
      type: "hello-ok",
      protocol: gateway.protocol,
      server: { version: "fake-2026.9.6", connId: randomUUID() },
      features: { methods: facts.methods, events: facts.events },
      snapshot: {
        presence: [],
        health: facts.health,
        stateVersion: { presence: 1, health: 1 },
        uptimeMs: 1000,
        sessionDefaults: { defaultAgentId: facts.defaultAgentId, mainKey: "main", mainSessionKey: `agent:${facts.defaultAgentId}:main` },
      },
      auth: { method: "token", role, scopes, ...(deviceId ? { deviceToken: `device-token-${deviceId.slice(0, 8)}`, issuedAtMs: Date.now() } : {}) },
      policy: { maxPayload: gateway.maxPayload, maxBufferedBytes: 52_428_800, tickIntervalMs: gateway.tickIntervalMs },
    },
  });
}

/** Checks a `device` block as the gateway does (reference §2.2, v3 or v2 payload); returns the problem or null. */
function verifyDevice(device: any, params: any, challenge: { nonce: string; ts: number }): string | null {
  if (typeof device !== "object" || device === null) return "device must be an object";
  const { id, publicKey, signature, signedAt, nonce } = device;
  if (nonce !== challenge.nonce) return "nonce does not match the challenge";
  if (signedAt !== challenge.ts) return "signedAt does not match the challenge";
  let raw: Buffer;
  try {
    raw = Buffer.from(publicKey, "base64url");
  } catch {
    return "publicKey is not base64url";
  }
  if (raw.length !== 32) return "publicKey is not a raw 32-byte Ed25519 key";
  if (createHash("sha256").update(raw).digest("hex") !== id) return "id is not the SHA-256 of the public key";
  const key = createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]), format: "der", type: "spki" });
  const token = params.auth?.token ?? params.auth?.deviceToken ?? params.auth?.bootstrapToken ?? "";
  const client = params.client ?? {};
  const v2 = ["v2", id, client.id, client.mode, params.role, params.scopes.join(","), signedAt, token, nonce].join("|");
  const v3 = ["v3", id, client.id, client.mode, params.role, params.scopes.join(","), signedAt, token, nonce, String(client.platform ?? "").toLowerCase(), String(client.deviceFamily ?? "").toLowerCase()].join("|");
  const sig = Buffer.from(String(signature), "base64url");
  if (verify(null, Buffer.from(v3), key, sig) || verify(null, Buffer.from(v2), key, sig)) return null;
  return "signature does not verify";
}
