import { z } from "@muster/plugin";

const agentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "an agent id: letters, digits, _ . - (at most 64)");
const mode = z.enum(["rag", "md", "default"]);

export const ragQuery = z.strictObject({
  q: z.string().trim().min(2).max(1000),
  agent: agentId.default("main"),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  /** Not in the spec: `vector` or `fulltext` alone, for comparing rankers (the bench). */
  mode: z.enum(["hybrid", "vector", "fulltext"]).default("hybrid"),
});

export const reindexBody = z.strictObject({ agent: agentId.default("main"), force: z.boolean().default(false) });

export const configBody = z.strictObject({
  provider: z.string().min(1).max(40).optional(),
  enabled: z.boolean().optional(),
  agentModes: z.record(agentId, mode).optional(),
});

const job = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  done: z.number(),
  total: z.number(),
  provider: z.string(),
  /** Why a job failed or was cancelled (the provider's coded error, a switch, a stop). */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
const configView = z.object({ provider: z.string(), enabled: z.boolean(), agentModes: z.record(z.string(), mode) });

export const ragResponse = z.object({
  ok: z.literal(true),
  query: z.string(),
  agent: z.string(),
  provider: z.string(),
  mode: z.string(),
  results: z.array(z.object({ path: z.string(), startLine: z.number(), endLine: z.number(), score: z.number(), excerpt: z.string() })),
});
export const reindexResponse = z.object({ ok: z.literal(true), job });
export const configResponse = z.object({
  ok: z.literal(true),
  config: configView,
  agents: z.array(z.object({ agentId: z.string(), provider: z.string(), indexed: z.number(), total: z.number(), chunks: z.number(), dirty: z.boolean(), vectorReady: z.boolean(), mode })),
  providers: z.array(z.object({ id: z.string(), name: z.string(), available: z.boolean(), model: z.string(), dimensions: z.number() })),
  /** The running job, else the last one since start (null before any): a failed one says why. */
  job: job.nullable(),
});
export const configUpdateResponse = z.object({ ok: z.literal(true), config: configView });
