// Reads an assistant message and its usage as the gateway sends them (reference §2.9):
// `content` is a string or an array of parts; usage names vary by path. Anything of an
// unexpected type is skipped, never an error.
import type { GatewayChatEvent, GatewayUsage } from "@muster/plugin";
import type { TokenUsage } from "../tokens.ts";

const TOOL_PART = new Set(["toolCall", "tool_call", "toolUse", "tool_use"]);

export interface ReplyContent {
  text: string;
  thinking: string | null;
  toolCalls: unknown[];
}

/** The text, thinking and tool calls of an assistant message. */
export function readReplyMessage(message: GatewayChatEvent["message"]): ReplyContent {
  const content = message?.content;
  if (typeof content === "string") return { text: content, thinking: null, toolCalls: [] };
  if (!Array.isArray(content)) return { text: "", thinking: null, toolCalls: [] };
  let text = "";
  let thinking: string | null = null;
  const toolCalls: unknown[] = [];
  for (const part of content) {
    if (typeof part !== "object" || part === null) continue;
    const p = part as Record<string, unknown>;
    if (p.type === "text" && typeof p.text === "string") text += p.text;
    else if (p.type === "thinking") {
      const value = typeof p.thinking === "string" ? p.thinking : typeof p.text === "string" ? p.text : "";
      thinking = (thinking ?? "") + value;
    } else if (typeof p.type === "string" && TOOL_PART.has(p.type)) toolCalls.push(p);
  }
  return { text, thinking, toolCalls };
}

const count = (...values: unknown[]): number => {
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Math.trunc(v);
  return 0;
};

/** Token counts of a final event; 0 for what it does not report. */
export function readUsage(usage: GatewayUsage | undefined): TokenUsage {
  if (typeof usage !== "object" || usage === null) return { inputTokens: 0, outputTokens: 0 };
  return { inputTokens: count(usage.inputTokens, usage.input), outputTokens: count(usage.outputTokens, usage.output) };
}
