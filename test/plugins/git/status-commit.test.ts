// GET /api/git in the spec's shape and commits, on a real repository.
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { createRepos, git, gitSuite, postGit, startGitHost, type Repos } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = gitSuite<{ h: TestHost; base: string; repos: Repos }>("git status and commit");

t("a clean repository with an upstream: the spec's record", async ({ h, repos }) => {
  const res = await h.json<ApiBody<"getGit">>("/api/git");
  assert.is(res.status, 200, JSON.stringify(res.body));
  const s = res.body;
  assert.is(s.ok, true);
  assert.is(s.branch, "main");
  assert.equal(s.commits, [{ hash: git(repos.work, "rev-parse", "HEAD"), message: "Initial commit" }]);
  assert.is(s.dirty, false);
  assert.equal(s.changedFiles, []);
  assert.is(s.ahead, 0);
  assert.is(s.behind, 0);
  assert.is(s.remote, repos.bare);
  assert.is(s.upstream, "origin/main");
  assert.match(String(s.lastCommitDate), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
});

t("changed files are listed as staged, modified and untracked; ahead counts local commits", async ({ h, repos }) => {
  writeFileSync(join(repos.work, "new.md"), "x");
  git(repos.work, "add", "new.md");
  git(repos.work, "commit", "--quiet", "-m", "Local only");
  writeFileSync(join(repos.work, "file.txt"), "changed\n");
  writeFileSync(join(repos.work, "staged.md"), "s");
  git(repos.work, "add", "staged.md");
  writeFileSync(join(repos.work, "loose file.md"), "u");
  const s = (await h.json<ApiBody<"getGit">>("/api/git")).body;
  assert.is(s.dirty, true);
  assert.equal(s.staged, ["staged.md"]);
  assert.equal(s.modified, ["file.txt"]);
  assert.equal(s.untracked, ["loose file.md"]);
  assert.equal(s.changedFiles.map((f) => `${f.status} ${f.path}`).sort(), [".M file.txt", "?? loose file.md", "A. staged.md"]);
  assert.is(s.ahead, 1);
  assert.is(s.behind, 0);
  assert.is(s.commits[0]?.message, "Local only");
});

t("behind counts the remote's commits once fetched", async ({ h, repos }) => {
  writeFileSync(join(repos.colleague, "theirs.md"), "t");
  git(repos.colleague, "add", "theirs.md");
  git(repos.colleague, "commit", "--quiet", "-m", "Theirs");
  git(repos.colleague, "push", "--quiet", "origin", "main");
  git(repos.work, "fetch", "--quiet", "origin");
  // What the answer depends on, checked first: the fetch brought the colleague's commit.
  assert.is(git(repos.work, "rev-parse", "refs/remotes/origin/main"), git(repos.colleague, "rev-parse", "HEAD"));
  const res = await h.json<ApiBody<"getGit">>("/api/git");
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.behind, 1, JSON.stringify(res.body));
  assert.is(res.body.ahead, 0);
});

t("no upstream: ahead and behind 0, remote null", async ({ h, base }) => {
  const repos = createRepos(base, { upstream: false });
  const s = (await h.json<ApiBody<"getGit">>("/api/git")).body;
  assert.is(s.upstream, null);
  assert.is(s.remote, null);
  assert.is(s.ahead, 0);
  assert.is(s.behind, 0);
  assert.is(s.branch, "main");
  assert.ok(repos.work);
});

t("a repository without commits: empty history, no date; the first commit works", async ({ h, repos }) => {
  rmSync(repos.work, { recursive: true, force: true });
  git(repos.base, "init", "--quiet", "--initial-branch=main", repos.work);
  git(repos.work, "config", "user.name", "muster");
  git(repos.work, "config", "user.email", "muster@example.test");
  writeFileSync(join(repos.work, "first.md"), "1");
  const s = (await h.json<ApiBody<"getGit">>("/api/git")).body;
  assert.equal({ branch: s.branch, commits: s.commits, lastCommitDate: s.lastCommitDate, untracked: s.untracked, remote: s.remote }, { branch: "main", commits: [], lastCommitDate: null, untracked: ["first.md"], remote: null });
  const res = await postGit(h, { operation: "commit", message: "First" });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is((await h.json<ApiBody<"getGit">>("/api/git")).body.commits.length, 1);
});

t("commit of named files: 201 with hash and message; other changes stay uncommitted", async ({ h, repos }) => {
  writeFileSync(join(repos.work, "notes.md"), "notes");
  writeFileSync(join(repos.work, "file.txt"), "edited\n");
  const res = await postGit(h, { operation: "commit", message: "Add notes\n\nWith a body.", files: ["notes.md"] });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.commit.hash, /^[0-9a-f]{40}$/);
  assert.is(res.body.commit.hash, git(repos.work, "rev-parse", "HEAD"));
  assert.is(res.body.commit.message, "Add notes\n\nWith a body.");
  assert.is(git(repos.work, "show", "--name-only", "--format=", "HEAD"), "notes.md");
  assert.is(git(repos.work, "status", "--porcelain"), "M file.txt");
});

t("commit without files takes every change, deletions included", async ({ h, repos }) => {
  writeFileSync(join(repos.work, "a.md"), "a");
  rmSync(join(repos.work, "file.txt"));
  const res = await postGit(h, { operation: "commit", message: "Everything" });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(git(repos.work, "status", "--porcelain"), "");
  assert.is(git(repos.work, "show", "--name-status", "--format=", "HEAD"), "A\ta.md\nD\tfile.txt");
});

t("nothing to commit is 409, and no commit is made", async ({ h, repos }) => {
  const before = git(repos.work, "rev-parse", "HEAD");
  const res = await postGit(h, { operation: "commit", message: "Empty" });
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "GIT_NOTHING_TO_COMMIT");
  writeFileSync(join(repos.work, "other.md"), "o");
  const scoped = await postGit(h, { operation: "commit", message: "Empty", files: ["file.txt"] });
  assert.is(scoped.status, 409);
  assert.is(git(repos.work, "rev-parse", "HEAD"), before);
});

t("files outside the repository (.., absolute, .git, symlinked folders) are 400 and nothing is staged", async ({ h, repos, base }) => {
  mkdirSync(join(base, "outside"));
  writeFileSync(join(base, "outside", "x.md"), "x");
  symlinkSync(join(base, "outside"), join(repos.work, "linked"));
  for (const file of ["../outside/x.md", join(base, "outside", "x.md"), "/etc/passwd", ".git/config", ".git", "linked/x.md", "sub/../../outside/x.md"]) {
    const res = await postGit(h, { operation: "commit", message: "Escape", files: [file] });
    assert.is(res.status, 400, `${file}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "GIT_PATH_OUTSIDE_REPOSITORY", file);
  }
  assert.is(git(repos.work, "diff", "--cached", "--name-only"), "");
});

t("a file matching nothing is 400; pathspec magic is taken literally", async ({ h, repos }) => {
  writeFileSync(join(repos.work, "keep.md"), "k");
  for (const file of ["missing.md", ":(exclude)keep.md", "*.md"]) {
    const res = await postGit(h, { operation: "commit", message: "Nope", files: [file] });
    assert.is(res.status, 400, `${file}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "GIT_PATHSPEC_UNMATCHED", file);
  }
  assert.is(git(repos.work, "diff", "--cached", "--name-only"), "");
});

t("the message is never an option, and repository hooks do not run", async ({ h, repos }) => {
  const hook = join(repos.work, ".git", "hooks", "pre-commit");
  writeFileSync(hook, `#!/bin/sh\ntouch ${join(repos.work, "..", "hook-ran")}\nexit 1\n`);
  chmodSync(hook, 0o755);
  writeFileSync(join(repos.work, "b.md"), "b");
  const res = await postGit(h, { operation: "commit", message: "--amend", files: ["b.md"] });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.commit.message, "--amend");
  assert.is(git(repos.work, "rev-list", "--count", "HEAD"), "2");
  assert.not.ok(existsSync(join(repos.work, "..", "hook-ran")));
});

t("bad bodies are 400 VALIDATION_FAILED", async ({ h }) => {
  for (const body of [
    {},
    { operation: "status" },
    { operation: "commit" },
    { operation: "commit", message: "" },
    { operation: "commit", message: "   " },
    { operation: "commit", message: "x", files: [] },
    { operation: "commit", message: "x", files: [""] },
    { operation: "commit", message: "x", extra: 1 },
    { operation: "commit", message: "a\u0000b" },
    { operation: "push", message: "x" },
    { operation: "push", remote: "" },
  ]) {
    const res = await postGit(h, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error?.code, "VALIDATION_FAILED", JSON.stringify(body));
  }
});

t("no repository: GET and POST are 404 GIT_NOT_A_REPOSITORY (also for a folder inside a repository)", async ({ repos }) => {
  mkdirSync(join(repos.work, "inner"));
  for (const repoPath of [undefined, join(repos.work, "inner"), join(repos.base, "missing")]) {
    const other = await startGitHost(repoPath);
    try {
      const get = await other.json<ApiBody<"getGit">>("/api/git");
      assert.is(get.status, 404, String(repoPath));
      assert.is(get.body.error?.code, "GIT_NOT_A_REPOSITORY");
      const post = await postGit(other, { operation: "commit", message: "x" });
      assert.is(post.status, 404);
      const push = await postGit(other, { operation: "push" });
      assert.is(push.status, 404);
    } finally {
      await other.stop();
      removeHome(other.home);
    }
  }
});

t.run();
