import { z } from "@muster/plugin";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");

/** `config.agents` in muster.config.json. */
export const agentsConfig = z.strictObject({
  /** How often the cached gateway sessions snapshot is re-read even without `sessions.changed` events. */
  sessionsRefreshMs: z.number().int().min(50).max(10 * 60_000).default(30_000),
  /** A burst of `sessions.changed` events without a session row triggers at most one re-read per this interval. */
  sessionsCoalesceMs: z.number().int().min(0).max(60_000).default(250),
  /** How often the gateway's `agents.list` is re-read (DESIGN §14: known agents). */
  agentsRefreshMs: z.number().int().min(100).max(10 * 60_000).default(60_000),
  /** How often agents are checked for the `stuck` state to escalate it. */
  escalationCheckMs: z.number().int().min(50).max(10 * 60_000).default(60_000),
  /** The marketplace chain that licence-gated packs are checked on (`holdsValidLicense`). */
  marketplace: z
    .strictObject({
      rpcUrl: z.string().url(),
      addresses: z.strictObject({ templateRegistry: address, licenseToken: address, marketplace: address }),
      /** Per-call timeout of the licence check. */
      timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
      /** How long a licence challenge (its nonce) may be signed and used. */
      challengeTtlSeconds: z.number().int().min(10).max(3_600).default(300),
    })
    .optional(),
});

export type AgentsConfig = z.output<typeof agentsConfig>;
