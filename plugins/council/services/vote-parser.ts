// Reads a vote from an agent's reply. Agents are asked for one JSON object but may wrap it
// in prose or a code fence, or answer with anything at all: whatever cannot be read as a
// vote counts as `abstain`, with the reason saying so (DESIGN §14.3).
import { clip } from "@muster/plugin";
import type { CouncilVote } from "./council-record.ts";

const REASON_MAX = 500;
const VOTES = new Set(["support", "oppose", "abstain"]);

/** Every balanced `{...}` span of the text, outermost first, ignoring braces inside strings. */
function* objectCandidates(text: string): Generator<string> {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length && i < start + 20_000; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        yield text.slice(start, i + 1);
        break;
      }
    }
  }
}

function readVote(value: unknown): Omit<CouncilVote, "agentId"> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const vote = typeof v.vote === "string" ? v.vote.trim().toLowerCase() : "";
  if (!VOTES.has(vote)) return null;
  const raw = typeof v.confidence === "number" ? v.confidence : typeof v.confidence === "string" ? Number(v.confidence) : NaN;
  // A percentage (85) is read as 0.85; anything else outside 0..1 is clamped.
  const scaled = raw > 1 && raw <= 100 ? raw / 100 : raw;
  const confidence = Number.isFinite(scaled) ? Math.min(1, Math.max(0, scaled)) : 0;
  const reason = typeof v.reason === "string" ? clip(v.reason.trim(), REASON_MAX) : "";
  return { vote: vote as CouncilVote["vote"], confidence, reason };
}

/** The agent's vote, or `abstain` with confidence 0 and the reason it could not be read. */
export function parseVote(agentId: string, reply: string): CouncilVote {
  for (const candidate of objectCandidates(reply)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    const vote = readVote(parsed);
    if (vote) return { agentId, ...vote };
  }
  const shown = clip(reply.replace(/\s+/g, " ").trim(), 200);
  return { agentId, vote: "abstain", confidence: 0, reason: clip(`Unreadable vote (no JSON object with a valid "vote"): ${shown || "(empty reply)"}`, REASON_MAX) };
}
