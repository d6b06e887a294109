import { z } from "@muster/plugin";

/** `config.git` in muster.config.json (docs/git.md). */
export const gitConfig = z.strictObject({
  /** The repository: its top directory, absolute or relative to the workspace (default the workspace itself). */
  repoPath: z.string().min(1).max(4096).optional(),
  /** Deadline for an approved push or pull, after which git is killed and the execution fails. */
  syncTimeoutMs: z.number().int().min(1000).max(30 * 60_000).default(120_000),
  /** Deadline for local operations (status, commit). */
  localTimeoutMs: z.number().int().min(1000).max(10 * 60_000).default(30_000),
});

export type GitConfig = z.output<typeof gitConfig>;
