import { z, schemas } from "@muster/plugin";
import { agentId } from "../../chat/http/schemas.ts";

export const startCouncilBody = z.strictObject({
  topic: z
    .string()
    .min(1)
    .max(2_000)
    .refine((text) => text.trim().length > 0, "must not be blank"),
  agents: z
    .array(agentId)
    .min(2)
    .max(7)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an agent twice"),
  rounds: z.number().int().min(1).max(5).default(2),
});

const session = z.object({
  id: z.string(),
  topic: z.string(),
  agents: z.array(z.string()),
  rounds: z.number().int(),
  status: z.enum(["running", "completed", "failed", "cancelled"]),
  positions: z.array(z.object({ round: z.number().int(), agentId: z.string(), text: z.string() })),
  proposal: z.string().nullable(),
  votes: z.array(z.object({ agentId: z.string(), vote: z.enum(["support", "oppose", "abstain"]), confidence: z.number(), reason: z.string() })),
  outcome: z.enum(["adopted", "no_consensus"]).nullable(),
  approvalId: z.string().nullable(),
  memoPath: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  ratifiedAt: z.string().nullable(),
  ratifiedBy: z.string().nullable(),
});

export const listQuery = z.strictObject({ limit: schemas.limit(50, 500) });
export const sessionParams = z.strictObject({ id: schemas.id });
export const emptyQuery = z.strictObject({});
export const sessionResponse = z.object({ ok: z.literal(true), session });
export const listResponse = z.object({ ok: z.literal(true), sessions: z.array(session) });
