// Real git repositories for the git plugin's tests: a working repository with a local bare
// remote and a second clone ("a colleague") that can push behind its back.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { gitPlugin } from "../../../plugins/git/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { decideApproval, type ApiBody, type Approval } from "@muster/plugin/testing";
import { suite, type Test } from "uvu";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";

/**
 * No automatic maintenance. Newer git (2.47+) runs it detached after commit, fetch and push:
 * a `git maintenance`/`gc` still working in a repository when the next test's createRepos
 * removes and recreates it at the same path fails that test ("directory not empty") or races
 * its repository, and it outlives the call longest on a loaded machine (issue 27, item 7).
 * With it off every git of a test has finished when its call returns. Passed through the
 * environment, so the git programs a push or fetch starts (receive-pack's auto gc) obey it too.
 */
const NO_BACKGROUND_GIT = [
  ["maintenance.auto", "false"],
  ["maintenance.autoDetach", "false"],
  ["gc.auto", "0"],
  ["gc.autoDetach", "false"],
  ["receive.autogc", "false"],
];
const noBackgroundGitEnv = Object.fromEntries([
  ["GIT_CONFIG_COUNT", String(NO_BACKGROUND_GIT.length)],
  ...NO_BACKGROUND_GIT.flatMap(([key, value], i) => [
    [`GIT_CONFIG_KEY_${i}`, key!],
    [`GIT_CONFIG_VALUE_${i}`, value!],
  ]),
]);

/** Runs git with a fixed identity, no system or global configuration, and nothing left running in the background. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C", ...noBackgroundGitEnv },
  }).trim();
}

export interface Repos {
  base: string;
  /** The repository Muster works on. */
  work: string;
  /** Its remote `origin`, a bare repository. */
  bare: string;
  /** Another clone of the remote. */
  colleague: string;
}

function identify(repo: string, name: string): void {
  git(repo, "config", "user.name", name);
  git(repo, "config", "user.email", `${name}@example.test`);
}

/** (Re)creates the repositories under `base`: `work` with one commit on main, pushed to `bare` and tracking it, and a colleague's clone. */
export function createRepos(base: string, options: { upstream?: boolean } = {}): Repos {
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  const repos = { base, work: join(base, "work"), bare: join(base, "remote.git"), colleague: join(base, "colleague") };
  git(base, "init", "--quiet", "--bare", "--initial-branch=main", repos.bare);
  git(base, "init", "--quiet", "--initial-branch=main", repos.work);
  identify(repos.work, "muster");
  writeFileSync(join(repos.work, "file.txt"), "line one\nline two\n");
  git(repos.work, "add", "file.txt");
  git(repos.work, "commit", "--quiet", "-m", "Initial commit");
  git(repos.work, "remote", "add", "origin", repos.bare);
  git(repos.work, "push", "--quiet", ...(options.upstream === false ? [] : ["--set-upstream"]), "origin", "main");
  git(base, "clone", "--quiet", repos.bare, repos.colleague);
  identify(repos.colleague, "colleague");
  return repos;
}

/** A fresh real temporary directory. */
export function tempBase(prefix = "muster-git-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** A host with the git plugin on `repoPath` (and the approval gate it needs). */
export function startGitHost(repoPath?: string): Promise<TestHost> {
  return startTestHost({
    plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, gitPlugin],
    config: { pluginConfig: { git: repoPath ? { repoPath } : {} } },
  });
}

type GitAnswer = ApiBody<"postGit">;
/** What `POST /api/git` answers this body (its OpenAPI is the union of both): a commit's `{ commit }`, a push's or pull's `{ approval }`, with `error` on a refusal. */
type GitAnswerTo<B> = B extends { operation: "commit" } ? Extract<GitAnswer, { commit: unknown }> : B extends { operation: "push" | "pull" } ? Extract<GitAnswer, { approval: unknown }> : GitAnswer;
export const postGit = <const B>(h: TestHost, body: B, headers: Record<string, string> = { "x-agent-id": "loki" }) => h.json<GitAnswerTo<B>>("/api/git", { method: "POST", body, headers });
export const approve = (h: TestHost, id: string) => decideApproval(h, id, "approved");
export const reject = (h: TestHost, id: string) => decideApproval(h, id, "rejected");

/** Writes `text` into the repository's .git/config directly, as a command in the workspace could. */
export const plantConfig = (repo: string, text: string) => appendFileSync(join(repo, ".git", "config"), `\n${text}\n`);

/** A shell command that leaves `marker` behind (and passes stdin through, as a filter must). */
export const leavesMarker = (marker: string) => `touch '${marker}'; cat`;

export interface GitSuiteContext {
  h: TestHost;
  base: string;
  repos: Repos;
}

/** A suite with one host on `base/work`, whose repositories are recreated before each test (then `eachTest` runs). */
export function gitSuite<C extends GitSuiteContext>(name: string, eachTest?: (ctx: C) => void): Test<C> {
  const t = suite<C>(name);
  t.before(async (ctx) => {
    ctx.base = tempBase();
    ctx.repos = createRepos(ctx.base);
    ctx.h = await startGitHost(ctx.repos.work);
  });
  t.before.each((ctx) => {
    ctx.repos = createRepos(ctx.base);
    eachTest?.(ctx);
  });
  t.after(async (ctx) => {
    await ctx.h.stop();
    removeHome(ctx.h.home);
    rmSync(ctx.base, { recursive: true, force: true });
  });
  return t;
}

/** Commits `file` with `content` in `repo` (outside Muster); returns the new head. */
export function commitIn(repo: string, file: string, content: string, message: string): string {
  writeFileSync(join(repo, file), content);
  git(repo, "add", file);
  git(repo, "commit", "--quiet", "-m", message);
  return git(repo, "rev-parse", "HEAD");
}

/** A git push or pull approval: the approval contract leaves `payload` and `executionResult` to the plugin that asked; these are git's. */
export type GitApproval = Omit<Approval, "payload" | "executionResult"> & {
  payload: { operation: "push" | "pull"; repoPath: string; remote: string; remoteUrl: string; branch: string; effectiveUrl: string; commit?: string };
  executionResult: { operation: "push" | "pull"; output: string } | null;
};
export const approvalOf = async (h: TestHost, id: string) => (await h.json(`/api/approvals/${id}`)).body.approval as GitApproval;
