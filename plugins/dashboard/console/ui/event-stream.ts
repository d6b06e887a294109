// A POST whose answer is an event stream (`Accept: text/event-stream`, `data: <json>` frames),
// as `POST /api/chat` answers: the SDK client hands such routes back as a raw Response, so
// this reads the body as it arrives. Same session discipline as the client (cookie, this
// tab's CSRF secret); a refusal before the stream opens is the API's JSON error, thrown as
// MusterApiError with its code.
import { MusterApiError } from "@muster/sdk/client";
import { csrfSecret } from "../session.ts";

export interface EventStreamOptions<Frame> {
  /** Called with each parsed `data:` frame, in order. */
  onFrame: (frame: Frame) => void;
  signal?: AbortSignal;
}

/** POSTs `body` as JSON to `path` and reads the event stream until it ends. */
export async function postEventStream<Frame>(path: string, body: unknown, { onFrame, signal }: EventStreamOptions<Frame>): Promise<void> {
  const headers = new Headers({ "content-type": "application/json", accept: "text/event-stream" });
  const secret = csrfSecret();
  if (secret) headers.set("x-muster-csrf", secret);
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin", signal });
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream") || !response.body) throw await refusal(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const data = buffer
        .slice(0, cut)
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      buffer = buffer.slice(cut + 2);
      if (data) onFrame(JSON.parse(data) as Frame);
    }
  }
}

async function refusal(response: Response): Promise<Error> {
  const text = await response.text();
  let envelope: { code?: unknown; message?: unknown; details?: unknown } | undefined;
  try {
    envelope = (JSON.parse(text) as { error?: typeof envelope }).error;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.code !== "string") return new Error(`The server answered ${response.status} without an event stream`);
  return new MusterApiError({
    code: envelope.code as never,
    message: typeof envelope.message === "string" ? envelope.message : envelope.code,
    status: response.status,
    details: envelope.details,
    requestId: response.headers.get("x-request-id"),
  });
}
