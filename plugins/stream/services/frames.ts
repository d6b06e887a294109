// SSE wire format. Every frame is `id: <id>\ndata: <json>\n\n`: JSON.stringify escapes line
// breaks inside strings, so a payload can never end the `data:` line early and forge a
// frame or an `event:` field (bad-input catalogue G65).

/** `{type:"connected"}`, `{type:"ping"}`, `{type:"file_change"}` or `{type:"event"}`. */
export type StreamMessage =
  | { type: "connected"; timestamp: number }
  | { type: "ping"; timestamp: number }
  | { type: "file_change"; event: { type: "created" | "updated" | "deleted"; path: string; timestamp: number } }
  | { type: "event"; name: string; payload: unknown; timestamp: number };

/** Encodes one frame; throws when the message cannot be serialised (BigInt, cycles). */
export function encodeFrame(id: string, message: StreamMessage): Buffer {
  return encodeJsonFrame(id, serialiseMessage(message));
}

/** A message's JSON; throws when it cannot be serialised (BigInt, cycles). */
export function serialiseMessage(message: StreamMessage): string {
  const json = JSON.stringify(message);
  if (typeof json !== "string") throw new TypeError("message is not serialisable");
  return json;
}

/** One frame of a message already serialised by {@link serialiseMessage} (one line: JSON escapes line breaks). */
export function encodeJsonFrame(id: string, json: string): Buffer {
  return Buffer.from(`id: ${id}\ndata: ${json}\n\n`, "utf8");
}

const LAST_EVENT_ID = /^([0-9a-f]{8})-(\d{1,15})$/;

/** Frame ids are `<boot id>-<sequence>`; the boot id tells a previous process's ids apart. */
export function formatId(bootId: string, seq: number): string {
  return `${bootId}-${seq}`;
}

/** Parses a `Last-Event-ID` header; null when it is absent or not one of ours. */
export function parseLastEventId(header: string | undefined): { bootId: string; seq: number } | null {
  if (!header) return null;
  const match = LAST_EVENT_ID.exec(header.trim());
  return match ? { bootId: match[1]!, seq: Number(match[2]) } : null;
}
