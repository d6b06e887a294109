import type { Logger } from "@muster/plugin";
import type { SerialQueue } from "./serial-queue.ts";
import type { GitSyncRunner, SyncPayload } from "../tokens.ts";
import { withoutCredentials } from "./repository-status.ts";
import { runGit, type GitOutput } from "./run-git.ts";

export interface SyncRunnerDeps {
  /** The repository's top directory now; the approved payload must still name it. */
  repository: () => Promise<string>;
  queue: SerialQueue;
  timeoutMs: number;
  localTimeoutMs: number;
  redact: (text: string) => string;
  logger: Logger;
}

/** The first `max` lines of `text`. */
export function firstLinesOf(text: string, max: number): string {
  return text.trim().split("\n").slice(0, max).join("\n");
}

/** Runs an approved push or pull; throws (failing the approval's execution) with git's redacted message. */
export class SyncRunner implements GitSyncRunner {
  private readonly deps: SyncRunnerDeps;
  constructor(deps: SyncRunnerDeps) {
    this.deps = deps;
  }

  sync(payload: SyncPayload): Promise<string> {
    return this.deps.queue.run(async () => {
      const repo = await this.deps.repository();
      if (repo !== payload.repoPath) throw new Error(`The approved ${payload.operation} was for ${payload.repoPath}, but git.repoPath is now ${repo}; nothing was run`);
      await this.assertUnchanged(repo, payload);
      return payload.operation === "push" ? this.push(repo, payload) : this.pull(repo, payload);
    });
  }

  /**
   * What runs is what the human approved: the remote still points at the approved URL, and a
   * push's branch is still at the approved commit (a commit made after the request, or a
   * remote re-pointed elsewhere, would otherwise go out under an old yes).
   */
  private async assertUnchanged(repo: string, payload: SyncPayload): Promise<void> {
    const opts = { timeoutMs: this.deps.localTimeoutMs };
    const url = await runGit(repo, ["remote", "get-url", "--", payload.remote], opts);
    const now = url.code === 0 ? withoutCredentials(url.stdout.trim()) : null;
    if (now !== payload.remoteUrl) {
      throw new Error(`The approved ${payload.operation} was to remote ${payload.remote} at ${payload.remoteUrl}, but it now points at ${now ?? "nothing"}; nothing was run. Request it again.`);
    }
    if (payload.operation !== "push" || payload.commit === undefined) return;
    const head = (await runGit(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${payload.branch}`], opts)).stdout.trim();
    if (head !== payload.commit) {
      throw new Error(`The approved push was of ${payload.branch} at ${payload.commit}, but the branch has moved to ${head || "nothing"} since; nothing was pushed. Request it again to review the new commits.`);
    }
  }

  private text(out: GitOutput): string {
    return this.deps.redact(`${out.stdout}${out.stderr}`.trim());
  }

  private async push(repo: string, { remote, branch }: SyncPayload): Promise<string> {
    const ref = `refs/heads/${branch}`;
    const out = await runGit(repo, ["push", "--set-upstream", "--", remote, `${ref}:${ref}`], { timeoutMs: this.deps.timeoutMs });
    if (out.code !== 0) throw new Error(`git push of ${branch} to ${remote} failed (exit ${out.code}): ${firstLinesOf(this.text(out), 20)}`);
    return this.text(out);
  }

  private async pull(repo: string, { remote, branch }: SyncPayload): Promise<string> {
    const out = await runGit(repo, ["pull", "--no-rebase", "--no-edit", "--", remote, branch], { timeoutMs: this.deps.timeoutMs });
    if (out.code === 0) return this.text(out);
    const conflicted = await runGit(repo, ["diff", "--name-only", "--diff-filter=U"], { timeoutMs: this.deps.localTimeoutMs });
    const files = conflicted.stdout.split("\n").filter(Boolean);
    // A merge left open (conflicts, or a merge commit git could not make, e.g. without an identity).
    const merging = (await runGit(repo, ["rev-parse", "--quiet", "--verify", "MERGE_HEAD"], { timeoutMs: this.deps.localTimeoutMs })).code === 0;
    if (files.length > 0 || merging) {
      // Leave the repository as it was before the pull, not half-merged with conflict markers.
      const abort = await runGit(repo, ["merge", "--abort"], { timeoutMs: this.deps.localTimeoutMs });
      this.deps.logger.warn({ remote, branch, files: files.length, aborted: abort.code === 0 }, "git pull hit a merge conflict");
      const state = abort.code === 0 ? "the merge was aborted and the working tree is as it was before the pull" : `and git merge --abort failed too: ${firstLinesOf(this.text(abort), 5)}`;
      const why = files.length > 0 ? `a merge conflict in ${files.slice(0, 20).join(", ")}` : "an unfinished merge";
      throw new Error(`git pull of ${branch} from ${remote} stopped on ${why}; ${state}. git said: ${firstLinesOf(this.text(out), 20)}`);
    }
    throw new Error(`git pull of ${branch} from ${remote} failed (exit ${out.code}): ${firstLinesOf(this.text(out), 20)}`);
  }
}
