import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import type { ApprovalGate, EventBus, Logger } from "@muster/plugin";
import type { ApprovalQueue, ApprovalRecord } from "../../approvals/tokens.ts";
import type { GitConfig } from "../config.ts";
import { gitErrors } from "../errors.ts";
import type { CommitRequest, GitRepository, SyncRequest } from "../tokens.ts";
import { identitySettings } from "./commit-identity.ts";
import { safeConfig, type ConfigEntry } from "./config-safety.ts";
import { classify, parseLog, parsePorcelain, withoutCredentials, type RepositoryStatus } from "./repository-status.ts";
import { runGit, type GitOutput } from "./run-git.ts";
import { SerialQueue } from "@muster/plugin";
import { GIT_SYNC_KIND, type SyncPayload } from "./sync-action.ts";
import { resolveSyncTarget } from "./sync-target.ts";

export interface GitServiceDeps {
  config: GitConfig;
  workspaceRoot: string;
  gate: ApprovalGate;
  approvals: ApprovalQueue;
  events: EventBus;
  logger: Logger;
  /** Serialises writes to the repository (commits and approved pushes/pulls share the index). */
  queue: SerialQueue;
}

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/** Remote names as git accepts them, never an option (`--upload-pack=...`). */
const REMOTE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** `GET`/`POST /api/git` on the configured repository (docs/git.md). */
export class GitService implements GitRepository {
  private readonly deps: GitServiceDeps;
  constructor(deps: GitServiceDeps) {
    this.deps = deps;
  }

  /** The configured repository's top directory (real path); 404 when it is not one. */
  async repository(): Promise<string> {
    const configured = resolve(this.deps.workspaceRoot, this.deps.config.repoPath ?? ".");
    let real: string;
    try {
      real = realpathSync(configured);
    } catch {
      throw gitErrors.GIT_NOT_A_REPOSITORY({ path: configured });
    }
    const top = await runGit(real, ["rev-parse", "--show-toplevel"], { timeoutMs: this.deps.config.localTimeoutMs }).catch(() => null);
    if (!top || top.code !== 0 || top.stdout.trim() !== real) throw gitErrors.GIT_NOT_A_REPOSITORY({ path: configured });
    return real;
  }

  /** The repository and its configuration, once the configuration names no program (409 `GIT_UNSAFE_CONFIG` otherwise). */
  async vetted(): Promise<{ repo: string; config: ConfigEntry[] }> {
    const repo = await this.repository();
    return { repo, config: await safeConfig(repo, this.deps.config.localTimeoutMs) };
  }

  private git(repo: string, args: string[], input?: string, settings?: string[]): Promise<GitOutput> {
    return runGit(repo, args, { timeoutMs: this.deps.config.localTimeoutMs, input, settings });
  }

  /** Runs a read that must succeed; a failure is logged with git's message and answered with a generic 500. */
  private async read(repo: string, args: string[]): Promise<string> {
    const out = await this.git(repo, args);
    if (out.code !== 0) {
      this.deps.logger.error({ args, code: out.code, stderr: out.stderr.slice(0, 2000) }, "git read failed");
      throw gitErrors.GIT_FAILED({ command: args[0] });
    }
    return out.stdout;
  }

  async status(): Promise<RepositoryStatus> {
    // status runs clean filters on files it must compare, so it is vetted like any write.
    const { repo } = await this.vetted();
    const { branch, files } = parsePorcelain(await this.read(repo, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"]));
    const hasHead = (await this.git(repo, ["rev-parse", "--verify", "--quiet", "HEAD"])).code === 0;
    const log = hasHead ? parseLog(await this.read(repo, ["log", "-10", "--format=%H%x1f%s%x1f%cI%x1e"])) : [];
    const remote = branch.upstream ? await this.upstreamUrl(repo, branch.head) : null;
    return {
      branch: branch.head,
      commits: log.map(({ hash, message }) => ({ hash, message })),
      dirty: files.length > 0,
      ...classify(files),
      // Without an upstream there is nothing to be ahead of or behind (git reports no counts).
      ahead: branch.upstream ? branch.ahead : 0,
      behind: branch.upstream ? branch.behind : 0,
      remote,
      upstream: branch.upstream,
      lastCommitDate: log[0]?.date ?? null,
    };
  }

  /** The URL of the remote the branch tracks, without credentials; null for a local upstream. */
  private async upstreamUrl(repo: string, branch: string): Promise<string | null> {
    const name = (await this.git(repo, ["config", "--get", `branch.${branch}.remote`])).stdout.trim();
    if (!name || name === ".") return null;
    const url = await this.git(repo, ["remote", "get-url", "--", name]);
    return url.code === 0 ? withoutCredentials(url.stdout.trim()) : null;
  }

  async commit(request: CommitRequest): Promise<{ hash: string; message: string }> {
    const repo = await this.repository();
    const files = request.files?.map((file) => this.checkFile(repo, file));
    return this.deps.queue.run(async () => {
      // Vetted inside the queue, just before git reads the configuration to stage and commit.
      const { config } = await this.vetted();
      const identity = await identitySettings(repo, config, this.deps.config.localTimeoutMs);
      const paths = files && files.length > 0 ? ["--", ...files] : [];
      const add = await this.git(repo, ["add", "--all", ...(paths.length > 0 ? paths : ["--", "."])]);
      if (add.code !== 0) {
        const unmatched = /pathspec '([^']*)' did not match/.exec(add.stderr);
        if (unmatched) throw gitErrors.GIT_PATHSPEC_UNMATCHED({ file: unmatched[1] });
        throw gitErrors.GIT_COMMIT_FAILED({ reason: firstLines(add.stderr) });
      }
      const staged = await this.git(repo, ["diff", "--cached", "--quiet", "--no-ext-diff", "--no-textconv", ...paths]);
      if (staged.code === 0) throw gitErrors.GIT_NOTHING_TO_COMMIT({ scope: paths.length > 0 ? " in the files given" : "" });
      // The message goes through stdin, so no text of it can be read as an option.
      const made = await this.git(repo, ["commit", "--quiet", "--no-verify", "--cleanup=whitespace", "--file=-", ...paths], request.message, identity);
      if (made.code !== 0) throw gitErrors.GIT_COMMIT_FAILED({ reason: firstLines(made.stderr || made.stdout) });
      const [head] = parseLog(await this.read(repo, ["log", "-1", "--format=%H%x1f%B%x1f%cI%x1e"]));
      const branch = (await this.git(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"])).stdout.trim() || "HEAD";
      const commit = { hash: head!.hash, message: head!.message.trim() };
      this.deps.events.publish("git.commit.created", { ...commit, branch }, { public: true });
      return commit;
    });
  }

  /** A file given to commit, relative to the repository: inside the working tree (symlinked folders resolved), never in .git. */
  private checkFile(repo: string, file: string): string {
    const absolute = resolve(repo, file);
    let real = absolute;
    try {
      real = realpathSync(absolute);
    } catch {
      // a deleted file: its folder must still be inside
      try {
        real = resolve(realpathSync(dirname(absolute)), basename(absolute));
      } catch {
        real = absolute;
      }
    }
    const rel = relative(repo, real);
    if (!isInside(repo, absolute) || !isInside(repo, real) || rel === "" || rel === ".git" || rel.startsWith(".git/")) {
      throw gitErrors.GIT_PATH_OUTSIDE_REPOSITORY({ file });
    }
    return relative(repo, absolute);
  }

  /** A push or pull as a pending approval with its remote and branch resolved now, so the human approves exactly what runs. */
  async requestSync(request: SyncRequest): Promise<ApprovalRecord> {
    const { repo, config } = await this.vetted();
    const remote = await this.resolveRemote(repo, request);
    const branch = await this.resolveBranch(repo, request);
    const url = await this.git(repo, ["remote", "get-url", "--", remote]);
    // Where git will really connect (push URL or fetch URL, every rewrite applied): shown and bound.
    const target = await resolveSyncTarget(repo, request.operation, remote, config, this.deps.config.localTimeoutMs);
    const payload: SyncPayload = { operation: request.operation, repoPath: repo, remote, remoteUrl: withoutCredentials(url.stdout.trim()), branch, effectiveUrl: target.shown };
    // The human approves this commit: anything committed after the request is not pushed with it.
    if (request.operation === "push") payload.commit = (await this.read(repo, ["rev-parse", "--verify", `refs/heads/${branch}`])).trim();
    const { approvalId } = await this.deps.gate.request(GIT_SYNC_KIND[request.operation], payload, {
      requestedBy: request.requestedBy,
      title: `git ${request.operation} ${branch}${payload.commit ? ` (${payload.commit.slice(0, 12)})` : ""} ${request.operation === "push" ? "to" : "from"} ${remote} (${payload.effectiveUrl})`.slice(0, 500),
      context: `Repository ${repo}; remote ${remote}: git ${request.operation === "push" ? "pushes to" : "fetches from"} ${payload.effectiveUrl}`,
    });
    return this.deps.approvals.get(approvalId);
  }

  private async resolveRemote(repo: string, request: SyncRequest): Promise<string> {
    const remotes = (await this.read(repo, ["remote"])).split("\n").filter(Boolean);
    if (request.remote !== undefined) {
      if (!REMOTE_NAME.test(request.remote) || !remotes.includes(request.remote)) throw gitErrors.GIT_REMOTE_UNKNOWN({ remote: request.remote });
      return request.remote;
    }
    const head = (await this.git(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"])).stdout.trim();
    const tracked = head ? (await this.git(repo, ["config", "--get", `branch.${head}.remote`])).stdout.trim() : "";
    if (tracked && remotes.includes(tracked)) return tracked;
    if (remotes.includes("origin")) return "origin";
    if (remotes.length === 1) return remotes[0]!;
    throw gitErrors.GIT_NO_REMOTE({ operation: request.operation });
  }

  private async resolveBranch(repo: string, request: SyncRequest): Promise<string> {
    let branch = request.branch;
    if (branch === undefined) {
      branch = (await this.git(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"])).stdout.trim();
      if (!branch) throw gitErrors.GIT_DETACHED_HEAD({ operation: request.operation });
    }
    const valid = !branch.startsWith("-") && (await this.git(repo, ["check-ref-format", "--branch", branch])).code === 0;
    if (!valid) throw gitErrors.GIT_BRANCH_INVALID({ branch });
    if (request.operation === "push" && (await this.git(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).code !== 0) {
      throw gitErrors.GIT_BRANCH_UNKNOWN({ branch });
    }
    return branch;
  }
}

/** The first lines of git's message, for an error answer. */
export function firstLines(text: string, max = 5): string {
  return text.trim().split("\n").slice(0, max).join(" | ").slice(0, 1000) || "no message";
}
