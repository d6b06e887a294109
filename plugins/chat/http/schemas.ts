import { z, schemas } from "@muster/plugin";

/** An agent id as gateway session keys can carry it (`agent:<agentId>:…`): no `:`. */
export const agentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be an agent id: letters, digits, _ and -, at most 64");
const message = z
  .string()
  .min(1)
  .max(32_000)
  .refine((text) => text.trim().length > 0, "must not be blank");

/** DESIGN §14.2 single mode. */
export const singleChatBody = z.strictObject({
  message,
  agentId,
  mode: z.literal("single").optional(),
  sessionId: schemas.id.optional(),
});

/** DESIGN §14.2 party mode. */
export const partyChatBody = z.strictObject({
  message,
  agentIds: z
    .array(agentId)
    .min(2)
    .max(8)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an agent twice"),
  mode: z.literal("party"),
  rounds: z.number().int().min(1).max(3).default(1),
  sessionId: schemas.id.optional(),
});

export const chatBody = z.union([partyChatBody, singleChatBody]);

const usage = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });

export const chatResponse = z.union([
  z.object({
    ok: z.literal(true),
    sessionId: z.string(),
    mode: z.literal("single"),
    reply: z.object({ agentId: z.string(), text: z.string(), thinking: z.string().optional(), toolCalls: z.array(z.unknown()), runId: z.string() }),
    usage,
  }),
  z.object({
    ok: z.literal(true),
    sessionId: z.string(),
    mode: z.literal("party"),
    replies: z.array(z.object({ agentId: z.string(), round: z.number().int(), text: z.string(), runId: z.string() })),
    usage,
    truncated: z.boolean(),
  }),
]);

const session = z.object({
  id: z.string(),
  mode: z.enum(["single", "party"]),
  agentIds: z.array(z.string()),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const chatMessage = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: z.enum(["user", "agent"]),
  agentId: z.string().nullable(),
  round: z.number().int().nullable(),
  text: z.string(),
  thinking: z.string().nullable(),
  toolCalls: z.array(z.unknown()),
  artifacts: z.array(z.unknown()),
  runId: z.string().nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  createdAt: z.string(),
});

export const listSessionsQuery = z.strictObject({ limit: schemas.limit(50, 500) });
export const sessionParams = z.strictObject({ id: schemas.id });
export const sessionQuery = z.strictObject({ limit: schemas.limit(1_000, 10_000) });
export const emptyQuery = z.strictObject({});

export const listSessionsResponse = z.object({ ok: z.literal(true), sessions: z.array(session) });
export const sessionResponse = z.object({ ok: z.literal(true), session, messages: z.array(chatMessage) });
export const okResponse = z.object({ ok: z.literal(true) });

const turn = z.object({
  id: z.string(),
  sessionId: z.string(),
  mode: z.enum(["single", "party"]),
  agentIds: z.array(z.string()),
  startedAt: z.string(),
  deadline: z.string(),
  attached: z.boolean(),
  detachedAt: z.string().nullable(),
  current: z.object({ agentId: z.string(), round: z.number().int() }).nullable(),
  waitingForApproval: z.object({ id: z.string(), kind: z.string(), command: z.string().nullable(), expiresAt: z.string().nullable() }).nullable(),
});

export const listTurnsQuery = z.strictObject({ sessionId: schemas.id.optional() });
export const turnParams = z.strictObject({ id: schemas.id });
export const emptyBody = z.strictObject({});
export const turnResponse = z.object({ ok: z.literal(true), turn });
export const listTurnsResponse = z.object({ ok: z.literal(true), turns: z.array(turn) });
export const abortTurnResponse = z.object({
  ok: z.literal(true),
  turn,
  outcome: z.enum(["completed", "failed", "cancelled"]),
  replies: z.array(chatMessage),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
