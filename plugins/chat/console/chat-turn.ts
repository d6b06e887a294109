// The turn being sent from this page: the human's message, each agent's reply as it streams
// in, and how the stream ended. Once it ends the replies are in the stored session, so the
// page reloads that and drops the live copy.
import { useRef, useState, MusterApiError } from "@muster/console";
import { streamChat, type ChatBody, type ChatFrame } from "./chat-stream.ts";

export interface LiveReply {
  agentId: string;
  round: number;
  text: string;
  done: boolean;
}

export interface LiveTurn {
  message: string;
  sessionId: string | null;
  replies: LiveReply[];
  /** The stream has ended and the stored session was read again: only the error (if any) is still this turn's to show. */
  ended: boolean;
  error: unknown;
}

export interface ChatTurn {
  turn: LiveTurn | null;
  /** Sends a chat; resolves when its stream ends. A refusal before the stream opens is thrown (the form shows it). */
  send(body: ChatBody, callbacks: { onSession: (sessionId: string) => void; onEnd: () => Promise<unknown> }): Promise<void>;
  /** Forgets an ended turn's error (its reply arrived later in the session). */
  clear(): void;
}

/** The stream stopped waiting but the turn goes on in the background (docs/chat.md, "Turns that outlive their request"). */
export function continuesInBackground(error: unknown): boolean {
  const details = error instanceof MusterApiError ? (error.details as { continues?: unknown } | null | undefined) : undefined;
  return details?.continues === true;
}

function applyFrame(turn: LiveTurn, frame: ChatFrame): LiveTurn {
  switch (frame.type) {
    case "start":
      return { ...turn, sessionId: frame.sessionId };
    case "agent_start":
      return { ...turn, replies: [...turn.replies, { agentId: frame.agentId, round: frame.round, text: "", done: false }] };
    case "delta":
      return { ...turn, replies: updateCurrent(turn.replies, frame.agentId, (r) => ({ ...r, text: frame.replace ? frame.text : r.text + frame.text })) };
    case "agent_done":
      return { ...turn, replies: updateCurrent(turn.replies, frame.agentId, (r) => ({ ...r, text: frame.text, done: true })) };
    case "error":
      return { ...turn, error: new MusterApiError({ code: frame.code as never, message: frame.message, status: 0, details: frame.details }) };
    default:
      return turn;
  }
}

/** The latest reply of `agentId` still streaming. */
function updateCurrent(replies: LiveReply[], agentId: string, change: (reply: LiveReply) => LiveReply): LiveReply[] {
  const index = replies.findLastIndex((r) => r.agentId === agentId && !r.done);
  if (index < 0) return replies;
  return replies.map((reply, i) => (i === index ? change(reply) : reply));
}

export function useChatTurn(): ChatTurn {
  const [turn, setTurn] = useState<LiveTurn | null>(null);
  const running = useRef(false);
  const send: ChatTurn["send"] = async (body, { onSession, onEnd }) => {
    // One turn at a time from this page; the form keeps what was typed and says why.
    if (running.current) throw new Error("A reply is still coming in: send this once it has arrived.");
    running.current = true;
    setTurn({ message: body.message, sessionId: body.sessionId ?? null, replies: [], ended: false, error: undefined });
    let opened = false;
    try {
      await streamChat(body, (frame) => {
        opened = true;
        setTurn((current) => (current ? applyFrame(current, frame) : current));
        if (frame.type === "start") onSession(frame.sessionId);
      });
    } catch (error) {
      if (!opened) {
        setTurn(null);
        throw error;
      }
      setTurn((current) => (current ? { ...current, error } : current));
    } finally {
      running.current = false;
    }
    await onEnd();
    // The stored session now holds every finished reply; an error stays shown until the next message.
    setTurn((current) => (current && current.error ? { ...current, replies: [], ended: true } : null));
  };
  const clear = () => setTurn((current) => (current && current.ended ? null : current));
  return { turn, send, clear };
}
