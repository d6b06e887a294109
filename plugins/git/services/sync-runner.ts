import type { Logger } from "@muster/plugin";
import { gitErrors } from "../errors.ts";
import type { SerialQueue } from "@muster/plugin";
import type { GitSyncRunner, SyncPayload } from "../tokens.ts";
import type { ConfigEntry } from "./config-safety.ts";
import { withoutCredentials } from "./repository-status.ts";
import { runGit, type GitOutput } from "./run-git.ts";
import { resolveSyncTarget } from "./sync-target.ts";

/** The programs at the other end of a local or ssh transport: git's own, whatever the configuration says. */
const RECEIVE_PACK = "--receive-pack=git-receive-pack";
const UPLOAD_PACK = "--upload-pack=git-upload-pack";

export interface SyncRunnerDeps {
  /** The repository's top directory and configuration now, vetted (409 `GIT_UNSAFE_CONFIG`); the approved payload must still name it. */
  vetted: () => Promise<{ repo: string; config: ConfigEntry[] }>;
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
      const { repo, config } = await this.deps.vetted();
      if (repo !== payload.repoPath) throw new Error(`The approved ${payload.operation} was for ${payload.repoPath}, but git.repoPath is now ${repo}; nothing was run`);
      const url = await this.assertUnchanged(repo, config, payload);
      return payload.operation === "push" ? this.push(repo, url, payload) : this.pull(repo, url, payload);
    });
  }

  /**
   * What runs is what the human approved: the remote still points at the approved URL and
   * still resolves (every rewrite applied) to the approved effective URL, which git is then
   * given explicitly; a push's branch is still at the approved commit (a commit made after the
   * request, or a remote re-pointed or rewritten elsewhere, would otherwise go out under an old yes).
   * Returns the URL to give git (credentials kept).
   */
  private async assertUnchanged(repo: string, config: ConfigEntry[], payload: SyncPayload): Promise<string> {
    const opts = { timeoutMs: this.deps.localTimeoutMs };
    const { operation, remote } = payload;
    const fetchUrl = await runGit(repo, ["remote", "get-url", "--", remote], opts);
    const now = fetchUrl.code === 0 ? withoutCredentials(fetchUrl.stdout.trim()) : null;
    if (now !== payload.remoteUrl) throw gitErrors.GIT_REMOTE_CHANGED({ operation, remote, approved: payload.remoteUrl, now: now ?? "nothing" });
    const target = await resolveSyncTarget(repo, operation, remote, config, this.deps.localTimeoutMs);
    // An approval requested before effective URLs were bound has none: it cannot be honoured.
    if (target.shown !== payload.effectiveUrl) throw gitErrors.GIT_REMOTE_CHANGED({ operation, remote, approved: payload.effectiveUrl ?? "(no effective URL recorded)", now: target.shown });
    if (operation === "push" && payload.commit !== undefined) {
      const head = (await runGit(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${payload.branch}`], opts)).stdout.trim();
      if (head !== payload.commit) throw gitErrors.GIT_BRANCH_MOVED({ branch: payload.branch, approved: payload.commit, now: head || "nothing" });
    }
    return target.url;
  }

  private text(out: GitOutput): string {
    return this.deps.redact(`${out.stdout}${out.stderr}`.trim());
  }

  private async push(repo: string, url: string, { remote, branch, commit }: SyncPayload): Promise<string> {
    const ref = `refs/heads/${branch}`;
    const pushed = commit ?? ref;
    const out = await runGit(repo, ["push", RECEIVE_PACK, "--recurse-submodules=no", "--", url, `${pushed}:${ref}`], { timeoutMs: this.deps.timeoutMs });
    if (out.code !== 0) throw new Error(`git push of ${branch} to ${remote} failed (exit ${out.code}): ${firstLinesOf(this.text(out), 20)}`);
    await this.track(repo, remote, branch, pushed);
    return this.text(out);
  }

  /**
   * What `push --set-upstream <remote>` did before the push went to an explicit URL: the
   * remote-tracking branch records the pushed commit and the branch tracks it.
   */
  private async track(repo: string, remote: string, branch: string, pushed: string): Promise<void> {
    const opts = { timeoutMs: this.deps.localTimeoutMs };
    const tracking = `refs/remotes/${remote}/${branch}`;
    const updated = await runGit(repo, ["update-ref", "-m", "push (approved)", tracking, pushed], opts);
    const upstream = updated.code === 0 ? await runGit(repo, ["branch", `--set-upstream-to=${remote}/${branch}`, "--", branch], opts) : updated;
    if (upstream.code !== 0) this.deps.logger.warn({ remote, branch, stderr: upstream.stderr.slice(0, 500) }, "git push succeeded but its upstream could not be recorded");
  }

  private async pull(repo: string, url: string, { remote, branch }: SyncPayload): Promise<string> {
    // The fetched branch also updates the remote-tracking branch, as a pull from the remote's name did.
    const refspec = `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`;
    const out = await runGit(repo, ["pull", "--no-rebase", "--no-edit", "--strategy=recursive", UPLOAD_PACK, "--recurse-submodules=no", "--", url, refspec], { timeoutMs: this.deps.timeoutMs });
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
