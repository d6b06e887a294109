// Push and pull are external actions: 202 with a pending approval, nothing reaches the remote
// until a human approves, then git runs once; failures (a rejected push, a conflicting pull)
// fail the approval's execution with git's message and leave the repository usable.
import * as assert from "uvu/assert";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestHost } from "../../helpers/start-test-host.ts";
import { approvalOf, approve, commitIn, createRepos, git, gitSuite, postGit, reject, type Repos } from "./helpers.ts";

const t = gitSuite<{ h: TestHost; base: string; repos: Repos }>("git push and pull through the gate");

const remoteHead = (repos: Repos) => git(repos.bare, "rev-parse", "main");

t("push is 202 with a pending approval; the remote gets the commit only once approved", async ({ h, repos }) => {
  const local = commitIn(repos.work, "a.md", "a", "Local work");
  const before = remoteHead(repos);
  const res = await postGit(h, { operation: "push" });
  assert.is(res.status, 202, JSON.stringify(res.body));
  const approval = res.body.approval;
  assert.is(approval.status, "pending");
  assert.is(approval.command, "git.push");
  assert.is(approval.requestedBy, "loki");
  assert.equal(approval.payload, { operation: "push", repoPath: repos.work, remote: "origin", remoteUrl: repos.bare, branch: "main", effectiveUrl: repos.bare, commit: local });
  assert.is(remoteHead(repos), before, "nothing is pushed before a decision");
  const decided = await approve(h, approval.id);
  assert.is(decided.status, 200, JSON.stringify(decided.body));
  const done = await approvalOf(h, approval.id);
  assert.is(done.executionStatus, "succeeded", done.executionError ?? undefined);
  assert.is(done.executionResult?.operation, "push");
  assert.type(done.executionResult?.output, "string");
  assert.is(remoteHead(repos), local);
  const again = await approve(h, approval.id);
  assert.is(again.status, 409, "an approval runs once");
});

t("what runs is what was approved: a push whose branch moved, or whose remote URL changed, after the request runs nothing", async ({ h, repos, base }) => {
  commitIn(repos.work, "a.md", "a", "Reviewed work");
  const before = remoteHead(repos);
  const moved = await postGit(h, { operation: "push" });
  assert.is(moved.status, 202, JSON.stringify(moved.body));
  // An agent commits through the API after the human was asked (no approval needed for a commit).
  writeFileSync(join(repos.work, "secret.txt"), "not reviewed");
  assert.is((await postGit(h, { operation: "commit", message: "Sneaked in" })).status, 201);
  assert.is((await approve(h, moved.body.approval.id)).status, 200);
  const movedDone = await approvalOf(h, moved.body.approval.id);
  assert.is(movedDone.executionStatus, "failed");
  assert.match(movedDone.executionError ?? "", /moved/);
  assert.is(remoteHead(repos), before, "the unreviewed commit never left");

  const elsewhere = join(base, "elsewhere.git");
  git(base, "init", "--quiet", "--bare", "--initial-branch=main", elsewhere);
  const redirected = await postGit(h, { operation: "push" });
  assert.is(redirected.status, 202, JSON.stringify(redirected.body));
  git(repos.work, "remote", "set-url", "origin", elsewhere);
  assert.is((await approve(h, redirected.body.approval.id)).status, 200);
  const redirectedDone = await approvalOf(h, redirected.body.approval.id);
  assert.is(redirectedDone.executionStatus, "failed");
  assert.match(redirectedDone.executionError ?? "", /remote/);
  assert.throws(() => git(elsewhere, "rev-parse", "--verify", "main"), "nothing reached the other URL");
  assert.is(remoteHead(repos), before);
});

t("a rejected approval runs nothing", async ({ h, repos }) => {
  commitIn(repos.work, "b.md", "b", "Not to be pushed");
  const before = remoteHead(repos);
  const res = await postGit(h, { operation: "push" });
  await reject(h, res.body.approval.id);
  assert.is((await approvalOf(h, res.body.approval.id)).executionStatus, "none");
  assert.is(remoteHead(repos), before);
});

t("push without an upstream pushes the branch and sets its upstream", async ({ h, base }) => {
  const repos = createRepos(base, { upstream: false });
  const local = commitIn(repos.work, "c.md", "c", "First of its kind");
  const res = await postGit(h, { operation: "push", remote: "origin", branch: "main" });
  assert.is(res.status, 202);
  await approve(h, res.body.approval.id);
  assert.is((await approvalOf(h, res.body.approval.id)).executionStatus, "succeeded");
  assert.is(remoteHead(repos), local);
  const s = (await h.json("/api/git")).body;
  assert.is(s.upstream, "origin/main");
  assert.is(s.remote, repos.bare);
});

t("a non-fast-forward push fails the execution with git's message; the remote keeps its history", async ({ h, repos }) => {
  const theirs = commitIn(repos.colleague, "theirs.md", "t", "Theirs");
  git(repos.colleague, "push", "--quiet", "origin", "main");
  commitIn(repos.work, "mine.md", "m", "Mine");
  const res = await postGit(h, { operation: "push" });
  await approve(h, res.body.approval.id);
  const done = await approvalOf(h, res.body.approval.id);
  assert.is(done.executionStatus, "failed");
  assert.match(done.executionError ?? "", /rejected|fetch first|non-fast-forward/);
  assert.is(remoteHead(repos), theirs);
});

t("pull merges the remote's commits when approved", async ({ h, repos }) => {
  commitIn(repos.colleague, "theirs.md", "t", "Theirs");
  git(repos.colleague, "push", "--quiet", "origin", "main");
  const res = await postGit(h, { operation: "pull" });
  assert.is(res.status, 202);
  assert.is(res.body.approval.command, "git.pull");
  assert.not.ok(existsSync(join(repos.work, "theirs.md")), "nothing is pulled before a decision");
  await approve(h, res.body.approval.id);
  const done = await approvalOf(h, res.body.approval.id);
  assert.is(done.executionStatus, "succeeded", done.executionError ?? undefined);
  assert.is(readFileSync(join(repos.work, "theirs.md"), "utf8"), "t");
});

t("a pull with a merge conflict fails clearly, aborts the merge and leaves the repository usable", async ({ h, repos }) => {
  commitIn(repos.colleague, "file.txt", "their line\n", "Theirs");
  git(repos.colleague, "push", "--quiet", "origin", "main");
  const mine = commitIn(repos.work, "file.txt", "my line\n", "Mine");
  const res = await postGit(h, { operation: "pull" });
  await approve(h, res.body.approval.id);
  const done = await approvalOf(h, res.body.approval.id);
  assert.is(done.executionStatus, "failed");
  assert.match(done.executionError ?? "", /merge conflict in file\.txt/);
  assert.match(done.executionError ?? "", /merge was aborted/);
  assert.is(git(repos.work, "rev-parse", "HEAD"), mine);
  assert.is(git(repos.work, "status", "--porcelain"), "");
  assert.not.ok(existsSync(join(repos.work, ".git", "MERGE_HEAD")));
  assert.is(readFileSync(join(repos.work, "file.txt"), "utf8"), "my line\n");
  writeFileSync(join(repos.work, "after.md"), "a");
  const next = await postGit(h, { operation: "commit", message: "Still works" });
  assert.is(next.status, 201);
});

t("option injection and unknown names are refused before any approval exists", async ({ h }) => {
  const before = (await h.json("/api/approvals")).body.pendingTotal;
  const cases: [Record<string, unknown>, number, string][] = [
    [{ operation: "push", branch: "--upload-pack=touch /tmp/pwned" }, 400, "GIT_BRANCH_INVALID"],
    [{ operation: "pull", branch: "-f" }, 400, "GIT_BRANCH_INVALID"],
    [{ operation: "pull", branch: "a..b" }, 400, "GIT_BRANCH_INVALID"],
    [{ operation: "push", branch: "no-such-branch" }, 400, "GIT_BRANCH_UNKNOWN"],
    [{ operation: "push", remote: "--upload-pack=touch /tmp/pwned" }, 400, "GIT_REMOTE_UNKNOWN"],
    [{ operation: "pull", remote: "-oProxyCommand=x" }, 400, "GIT_REMOTE_UNKNOWN"],
    [{ operation: "push", remote: "upstream" }, 400, "GIT_REMOTE_UNKNOWN"],
    [{ operation: "push", remote: "/tmp/elsewhere.git" }, 400, "GIT_REMOTE_UNKNOWN"],
  ];
  for (const [body, status, code] of cases) {
    const res = await postGit(h, body);
    assert.is(res.status, status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error!.code, code, JSON.stringify(body));
  }
  assert.is((await h.json("/api/approvals")).body.pendingTotal, before);
});

t("a detached HEAD needs a branch name; a repository without remotes has nothing to push to", async ({ h, repos }) => {
  git(repos.work, "checkout", "--quiet", "--detach");
  const detached = await postGit(h, { operation: "push" });
  assert.is(detached.status, 409);
  assert.is(detached.body.error!.code, "GIT_DETACHED_HEAD");
  git(repos.work, "checkout", "--quiet", "main");
  git(repos.work, "remote", "remove", "origin");
  const none = await postGit(h, { operation: "push" });
  assert.is(none.status, 409);
  assert.is(none.body.error!.code, "GIT_NO_REMOTE");
});

t("push hooks do not run", async ({ h, repos, base }) => {
  const marker = join(base, "pre-push-ran");
  const hook = join(repos.work, ".git", "hooks", "pre-push");
  writeFileSync(hook, `#!/bin/sh\ntouch ${marker}\nexit 1\n`);
  chmodSync(hook, 0o755);
  const local = commitIn(repos.work, "d.md", "d", "Hooked");
  const res = await postGit(h, { operation: "push" });
  await approve(h, res.body.approval.id);
  assert.is((await approvalOf(h, res.body.approval.id)).executionStatus, "succeeded");
  assert.is(remoteHead(repos), local);
  assert.not.ok(existsSync(marker));
});

t.run();
