import { approvalSchema } from "../../approvals/tokens.ts";
import { z } from "@muster/plugin";

const noNul = (max: number) => z.string().min(1).max(max).refine((s) => !s.includes("\0"), "must not contain NUL characters");

const commitBody = z.strictObject({
  operation: z.literal("commit"),
  message: noNul(10_000).refine((m) => m.trim().length > 0, "must not be blank"),
  /** Repository-relative files; absent: every change in the working tree. */
  files: z.array(noNul(4096)).min(1).max(1000).optional(),
});

const syncFields = {
  /** A configured remote's name; default the branch's upstream remote, else origin, else the only remote. */
  remote: noNul(100).optional(),
  /** A branch name; default the current branch. */
  branch: noNul(255).optional(),
  /** Who asks, shown on the approval (an X-Agent-Id header wins); default "api". */
  requestedBy: z.string().trim().min(1).max(128).optional(),
};

export const gitBody = z.discriminatedUnion("operation", [
  commitBody,
  z.strictObject({ operation: z.literal("push"), ...syncFields }),
  z.strictObject({ operation: z.literal("pull"), ...syncFields }),
]);

const changedFile = z.object({ path: z.string(), status: z.string() });

export const statusResponse = z.object({
  ok: z.literal(true),
  branch: z.string(),
  commits: z.array(z.object({ hash: z.string(), message: z.string() })),
  dirty: z.boolean(),
  changedFiles: z.array(changedFile),
  staged: z.array(z.string()),
  modified: z.array(z.string()),
  untracked: z.array(z.string()),
  conflicted: z.array(z.string()),
  ahead: z.number().int(),
  behind: z.number().int(),
  remote: z.string().nullable(),
  upstream: z.string().nullable(),
  lastCommitDate: z.string().nullable(),
});

export const operationResponse = z.union([
  z.object({ ok: z.literal(true), commit: z.object({ hash: z.string(), message: z.string() }) }),
  z.object({ ok: z.literal(true), approval: approvalSchema }),
]);
