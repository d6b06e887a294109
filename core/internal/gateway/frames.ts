// Frames the gateway sends, validated on receipt (reference §2.1). The gateway is a peer,
// not trusted code: a frame that is too large, not JSON or not a known shape is reported
// (with a clipped sample, never the whole frame) and dropped; nothing here throws.
import { z } from "zod";
import { clip } from "../../plugin-api/helpers.ts";
import type { GatewayErrorShape } from "../../plugin-api/gateway.ts";

/** Never accept more than this, whatever `policy.maxPayload` says (the gateway's own is 25 MiB). */
export const HARD_FRAME_CAP_BYTES = 25 * 1024 * 1024;

const errorShape = z.looseObject({
  code: z.string().min(1).max(200),
  message: z.string().max(100_000),
  details: z.record(z.string(), z.unknown()).optional(),
  retryable: z.boolean().optional(),
  retryAfterMs: z.number().int().min(0).optional(),
});

const resFrame = z.looseObject({
  type: z.literal("res"),
  id: z.string().min(1).max(200),
  ok: z.boolean(),
  payload: z.unknown().optional(),
  error: errorShape.optional(),
});

const eventFrame = z.looseObject({
  type: z.literal("event"),
  event: z.string().min(1).max(200),
  payload: z.unknown().optional(),
  seq: z.number().int().min(0).optional(),
});

export type ResFrame = { type: "res"; id: string; ok: true; payload: unknown } | { type: "res"; id: string; ok: false; error: GatewayErrorShape };
export type EventFrame = { type: "event"; event: string; payload: unknown; seq?: number };

export type ParsedFrame = ResFrame | EventFrame | { type: "invalid"; reason: string; sample: string };

const SAMPLE_CHARS = 200;

/** Parses one received text frame; `maxBytes` is the negotiated cap (never above the hard cap). */
export function parseFrame(data: Buffer | string, maxBytes: number): ParsedFrame {
  const size = typeof data === "string" ? Buffer.byteLength(data) : data.length;
  const text = typeof data === "string" ? data : data.subarray(0, Math.min(size, SAMPLE_CHARS * 4)).toString("utf8");
  const limit = Math.min(maxBytes, HARD_FRAME_CAP_BYTES);
  if (size > limit) return { type: "invalid", reason: `frame of ${size} bytes is over the ${limit}-byte cap`, sample: clip(text, SAMPLE_CHARS) };
  const full = typeof data === "string" ? data : data.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(full);
  } catch (error) {
    return { type: "invalid", reason: `not JSON (${(error as Error).message})`, sample: clip(full, SAMPLE_CHARS) };
  }
  const kind = typeof json === "object" && json !== null ? (json as { type?: unknown }).type : undefined;
  if (kind === "res") {
    const parsed = resFrame.safeParse(json);
    if (!parsed.success) return { type: "invalid", reason: `malformed res: ${parsed.error.issues[0]?.message ?? "invalid"}`, sample: clip(full, SAMPLE_CHARS) };
    const f = parsed.data;
    if (f.ok) return { type: "res", id: f.id, ok: true, payload: f.payload };
    if (!f.error) return { type: "invalid", reason: "res with ok:false and no error", sample: clip(full, SAMPLE_CHARS) };
    return { type: "res", id: f.id, ok: false, error: f.error as GatewayErrorShape };
  }
  if (kind === "event") {
    const parsed = eventFrame.safeParse(json);
    if (!parsed.success) return { type: "invalid", reason: `malformed event: ${parsed.error.issues[0]?.message ?? "invalid"}`, sample: clip(full, SAMPLE_CHARS) };
    const { event, payload, seq } = parsed.data;
    return seq === undefined ? { type: "event", event, payload } : { type: "event", event, payload, seq };
  }
  return { type: "invalid", reason: `unknown frame type ${JSON.stringify(kind)?.slice(0, 40) ?? "undefined"}`, sample: clip(full, SAMPLE_CHARS) };
}
