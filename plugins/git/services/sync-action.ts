// The gated actions `git.push` and `git.pull`: they run only when a human approves, once,
// with the payload stored at request time.
import { defineGatedAction, MusterError, type GatedAction } from "@muster/plugin";
import { GIT_SYNC, type GitSyncRunner } from "../tokens.ts";
import { firstLinesOf } from "./sync-runner.ts";

export interface SyncPayload {
  operation: "push" | "pull";
  repoPath: string;
  remote: string;
  /** Shown to the human; the remote's URL at request time, without credentials. */
  remoteUrl: string;
  branch: string;
  /**
   * Where git connects: the push URL (push) or fetch URL (pull) after every insteadOf/pushInsteadOf
   * rewrite, without credentials. Resolved at request time and shown; at execution git is given
   * this URL explicitly, and the execution fails while the remote resolves elsewhere.
   */
  effectiveUrl?: string;
  /** A push's commit: the branch's head at request time. The push runs only while the branch is still there. */
  commit?: string;
}

export const GIT_SYNC_KIND = { push: "git.push", pull: "git.pull" } as const;

/** The gated action for one operation; its result (git's output) is stored on the approval. */
export function syncAction(runner: GitSyncRunner): GatedAction<SyncPayload> {
  return {
    describe: (p) => {
      const where = `${p.remote} (${p.effectiveUrl ?? p.remoteUrl})`;
      return p.operation === "push" ? `Push branch ${p.branch}${p.commit ? ` at ${p.commit.slice(0, 12)}` : ""} to ${where}` : `Pull branch ${p.branch} from ${where} and merge it`;
    },
    execute: async (payload) => {
      // The approval records only a message: a refusal keeps its code at the front of it.
      const output = await runner.sync(payload).catch((error: unknown) => {
        throw error instanceof MusterError ? new Error(`${error.code}: ${error.message}`) : error;
      });
      return { operation: payload.operation, remote: payload.remote, branch: payload.branch, output: firstLinesOf(output, 200) };
    },
  };
}

/** `git.push` and `git.pull`, declared on the plugin (gatedActions) with the runner they use. */
export const gitSyncActions = Object.values(GIT_SYNC_KIND).map((kind) =>
  defineGatedAction({
    kind,
    deps: { runner: GIT_SYNC },
    create: ({ runner }) => syncAction(runner),
  }),
);
