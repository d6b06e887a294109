// The gated actions `git.push` and `git.pull`: they run only when a human approves, once,
// with the payload stored at request time.
import type { GatedAction } from "@muster/plugin";
import type { GitSyncRunner } from "../tokens.ts";
import { firstLinesOf } from "./sync-runner.ts";

export interface SyncPayload {
  operation: "push" | "pull";
  repoPath: string;
  remote: string;
  /** Shown to the human; the remote's URL at request time, without credentials. */
  remoteUrl: string;
  branch: string;
  /** A push's commit: the branch's head at request time. The push runs only while the branch is still there. */
  commit?: string;
}

export const GIT_SYNC_KIND = { push: "git.push", pull: "git.pull" } as const;

/** The gated action for one operation; its result (git's output) is stored on the approval. */
export function syncAction(runner: GitSyncRunner): GatedAction<SyncPayload> {
  return {
    describe: (p) => (p.operation === "push" ? `Push branch ${p.branch}${p.commit ? ` at ${p.commit.slice(0, 12)}` : ""} to ${p.remote} (${p.remoteUrl})` : `Pull branch ${p.branch} from ${p.remote} (${p.remoteUrl}) and merge it`),
    execute: async (payload) => {
      const output = await runner.sync(payload);
      return { operation: payload.operation, remote: payload.remote, branch: payload.branch, output: firstLinesOf(output, 200) };
    },
  };
}
