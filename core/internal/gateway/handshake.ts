// The `connect` request and what its answer means (reference §2.2). Shared by the client
// and `muster doctor`, so both speak to the gateway the same way.
import { platform } from "node:os";
import type { GatewayErrorShape, GatewayHello } from "../../plugin-api/gateway.ts";
import { deviceBlock, type DeviceIdentity } from "./device-identity.ts";
import { GATEWAY_PROTOCOL } from "./timings.ts";
import { isLoopback } from "../config.ts";

/** The only client id and mode that keep their scopes device-less on loopback. */
export const CLIENT_ID = "gateway-client";
export const CLIENT_MODE = "backend";
export const ROLE = "operator";
/** Operator capabilities declared on connect (reference §2.2). */
export const CLIENT_CAPS = ["approvals"];

export interface ConnectInput {
  version: string;
  scopes: string[];
  token: string | null;
  challenge: { nonce: string; ts: number } | null;
  device: DeviceIdentity | null;
}

/** `connect.params`: a closed object on the gateway, so only these keys. */
export function connectParams(input: ConnectInput): Record<string, unknown> {
  const client = { id: CLIENT_ID, version: input.version, platform: platform(), mode: CLIENT_MODE };
  const auth = input.token ? { token: input.token } : input.device?.deviceToken ? { deviceToken: input.device.deviceToken } : undefined;
  // `approvals`: the gateway sends its approval requests (exec, plugin, system-agent) only to
  // clients that declare this capability; the gateway-approvals plugin turns them into Muster approvals.
  const params: Record<string, unknown> = { minProtocol: GATEWAY_PROTOCOL, maxProtocol: GATEWAY_PROTOCOL, client, role: ROLE, scopes: input.scopes, caps: CLIENT_CAPS, ...(auth ? { auth } : {}) };
  if (input.device && input.challenge) {
    params.device = deviceBlock(input.device, {
      clientId: client.id,
      clientMode: client.mode,
      role: ROLE,
      scopes: input.scopes,
      token: input.token ?? input.device.deviceToken ?? "",
      nonce: input.challenge.nonce,
      signedAt: input.challenge.ts,
      platform: client.platform,
    });
  }
  return params;
}

/** Whether the device identity is used: configured on, or `auto` and the gateway is not on loopback. */
export function wantsDevice(setting: "auto" | "on" | "off", url: string): boolean {
  if (setting !== "auto") return setting === "on";
  try {
    return !isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** What a refused `connect` means for the client. */
export type ConnectRefusal =
  | { kind: "unauthorized"; reason: string }
  | { kind: "protocol"; reason: string }
  | { kind: "pairing"; reason: string }
  | { kind: "starting"; reason: string; retryAfterMs: number }
  | { kind: "other"; reason: string };

export function classifyRefusal(error: GatewayErrorShape): ConnectRefusal {
  const detailCode = typeof error.details?.code === "string" ? error.details.code : undefined;
  if (detailCode === "AUTH_TOKEN_MISMATCH" || /token mismatch|unauthorized/i.test(error.message)) {
    return { kind: "unauthorized", reason: "the gateway refused the token (AUTH_TOKEN_MISMATCH)" };
  }
  if (detailCode === "PROTOCOL_MISMATCH") {
    const expected = error.details?.expectedProtocol;
    return { kind: "protocol", reason: `protocol mismatch: the gateway speaks protocol ${String(expected ?? "?")}, Muster speaks ${GATEWAY_PROTOCOL}` };
  }
  if (error.code === "NOT_PAIRED" || detailCode === "DEVICE_IDENTITY_REQUIRED") {
    return { kind: "pairing", reason: `the gateway wants a paired device (${error.message})` };
  }
  if (error.code === "UNAVAILABLE" && error.retryable !== false) {
    return { kind: "starting", reason: `the gateway is starting (${error.message})`, retryAfterMs: error.retryAfterMs ?? 500 };
  }
  return { kind: "other", reason: `the gateway refused connect: ${error.code} ${error.message}` };
}

/** Reads `hello-ok` (loosely: only the fields Muster uses). */
export function readHello(payload: unknown): GatewayHello | null {
  const p = payload as Record<string, any> | null;
  if (!p || p.type !== "hello-ok" || typeof p.protocol !== "number") return null;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const positive = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback);
  const defaultAgentId = p.snapshot?.sessionDefaults?.defaultAgentId;
  return {
    protocol: p.protocol,
    ...(typeof p.server?.version === "string" ? { serverVersion: p.server.version } : {}),
    scopes: list(p.auth?.scopes),
    methods: list(p.features?.methods),
    events: list(p.features?.events),
    tickIntervalMs: positive(p.policy?.tickIntervalMs, 30_000),
    maxPayload: positive(p.policy?.maxPayload, 26_214_400),
    ...(typeof defaultAgentId === "string" ? { defaultAgentId } : {}),
  };
}

/** Requested scopes the gateway did not grant (`operator.admin` covers all, `write` covers `read`). */
export function missingScopes(requested: string[], granted: string[]): string[] {
  const has = (s: string) => granted.includes(s) || granted.includes("operator.admin") || (s === "operator.read" && granted.includes("operator.write"));
  return requested.filter((s) => !has(s));
}
