// POST /api/chat read as its event stream (docs/chat.md, "JSON or streamed"): the frames typed,
// the body typed from the SDK's own route table.
import { postEventStream, type Muster } from "@muster/console";

/** The body of `POST /api/chat`, single or party. */
export type ChatBody = Parameters<Muster["postChat"]>[0]["body"];

export type ChatFrame =
  | { type: "start"; sessionId: string; mode: "single" | "party"; agentIds: string[]; turnId?: string }
  | { type: "agent_start"; agentId: string; round: number }
  | { type: "delta"; agentId: string; text: string; replace?: boolean }
  | { type: "agent_done"; agentId: string; round: number; text: string }
  | { type: "done"; sessionId: string }
  | { type: "error"; code: string; message: string; details?: unknown };

/** Sends a chat and calls `onFrame` for each frame as it arrives; a refusal before the stream opens throws the API's error. */
export function streamChat(body: ChatBody, onFrame: (frame: ChatFrame) => void, signal?: AbortSignal): Promise<void> {
  return postEventStream<ChatFrame>("/api/chat", body, { onFrame, signal });
}
