// What is approved is what runs (issue 22, findings 2 and 3): the effective push/fetch URL is
// resolved at request time, shown and bound; a pushurl or (push)insteadOf set after the request
// never sends an approved push or pull elsewhere, and no receivepack/uploadpack of the
// repository's choosing runs. Real bare repositories stand in for the remotes.
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TestHost } from "../../helpers/start-test-host.ts";
import { approvalOf, approve, commitIn, createRepos, git, gitSuite, plantConfig, postGit, type GitApproval, type Repos } from "./helpers.ts";

const t = gitSuite<{ h: TestHost; base: string; repos: Repos; elsewhere: string; marker: string }>("git push and pull go where the human saw", (ctx) => {
  // Another real remote, with a history of its own, where nothing may ever arrive.
  ctx.elsewhere = join(ctx.base, "elsewhere.git");
  git(ctx.base, "init", "--quiet", "--bare", "--initial-branch=main", ctx.elsewhere);
  ctx.marker = join(ctx.base, "planted-program-ran");
});

const head = (bare: string) => {
  try {
    return git(bare, "rev-parse", "--verify", "--quiet", "main");
  } catch {
    return null;
  }
};

/** Requests `operation`, lets `meanwhile` change the repository, approves; returns the finished approval. */
async function requestThenApprove(h: TestHost, operation: "push" | "pull", meanwhile: () => void) {
  const res = await postGit(h, { operation });
  assert.is(res.status, 202, JSON.stringify(res.body));
  meanwhile();
  assert.is((await approve(h, res.body.approval.id)).status, 200);
  return { requested: res.body.approval as GitApproval, done: await approvalOf(h, res.body.approval.id) };
}

t("the approval shows and binds the effective push URL: a pushurl set before the request is where it goes", async ({ h, repos, elsewhere }) => {
  const local = commitIn(repos.work, "a.md", "a", "Work");
  git(repos.work, "config", "remote.origin.pushurl", elsewhere);
  const { requested, done } = await requestThenApprove(h, "push", () => undefined);
  assert.is(requested.payload.remoteUrl, repos.bare, "the fetch URL stays in the payload");
  assert.is(requested.payload.effectiveUrl, elsewhere, "the human sees where the push goes");
  assert.ok(requested.title.includes(elsewhere), requested.title);
  assert.is(done.executionStatus, "succeeded", done.executionError ?? undefined);
  assert.is(head(elsewhere), local);
});

for (const [name, redirect] of [
  ["remote.origin.pushurl", (r: Repos, to: string) => git(r.work, "config", "remote.origin.pushurl", to)],
  ["url.<elsewhere>.pushInsteadOf", (r: Repos, to: string) => git(r.work, "config", `url.${to}.pushInsteadOf`, r.bare)],
  ["url.<elsewhere>.insteadOf", (r: Repos, to: string) => git(r.work, "config", `url.${to}.insteadOf`, r.bare)],
  ["a remote section named by the approved URL", (r: Repos, to: string) => plantConfig(r.work, `[remote "${r.bare}"]\n\tpushurl = ${to}\n\turl = ${to}`)],
] as const) {
  t(`a push redirected after the request (${name}) runs nothing and reaches neither remote`, async ({ h, repos, elsewhere }) => {
    commitIn(repos.work, "a.md", "a", "Reviewed");
    const before = head(repos.bare);
    const { requested, done } = await requestThenApprove(h, "push", () => redirect(repos, elsewhere));
    assert.is(head(elsewhere), null, "nothing reached the other repository");
    assert.is(head(repos.bare), before, "and nothing was pushed under a changed destination");
    assert.is(requested.payload.effectiveUrl, repos.bare);
    assert.is(done.executionStatus, "failed");
    assert.match(done.executionError ?? "", /^GIT_REMOTE_(CHANGED|REDIRECTED): /);
  });
}

t("a pull redirected after the request (insteadOf) fetches nothing from elsewhere", async ({ h, repos, base, elsewhere }) => {
  const other = join(base, "other-clone");
  git(base, "clone", "--quiet", repos.bare, other);
  git(other, "config", "user.name", "other");
  git(other, "config", "user.email", "other@example.test");
  commitIn(other, "planted.md", "from elsewhere", "Elsewhere's commit");
  git(other, "push", "--quiet", elsewhere, "main");
  const mine = git(repos.work, "rev-parse", "HEAD");
  const { done } = await requestThenApprove(h, "pull", () => git(repos.work, "config", `url.${elsewhere}.insteadOf`, repos.bare));
  assert.not.ok(existsSync(join(repos.work, "planted.md")), "nothing came from the other repository");
  assert.is(git(repos.work, "rev-parse", "HEAD"), mine);
  assert.is(done.executionStatus, "failed");
  assert.match(done.executionError ?? "", /^GIT_REMOTE_(CHANGED|REDIRECTED): /);
});

t("a rewrite in place at request time is refused before any approval exists, naming the key", async ({ h, repos, elsewhere }) => {
  // git remote get-url shows the rewritten URL, but an explicit URL can be rewritten once more.
  const mirror = `${repos.bare}-mirror`;
  git(repos.work, "config", `url.${mirror}.pushInsteadOf`, repos.bare);
  const res = await postGit(h, { operation: "push" });
  assert.is(res.status, 409, JSON.stringify(res.body));
  assert.is(res.body.error!.code, "GIT_REMOTE_REDIRECTED");
  assert.ok(res.body.error!.message.includes(`url.${mirror}.pushinsteadof`), res.body.error!.message);
  git(repos.work, "config", "--unset", `url.${mirror}.pushInsteadOf`);
  git(repos.work, "config", "--add", "remote.origin.pushurl", repos.bare);
  git(repos.work, "config", "--add", "remote.origin.pushurl", elsewhere);
  const two = await postGit(h, { operation: "push" });
  assert.is(two.status, 409, JSON.stringify(two.body));
  assert.is(two.body.error!.code, "GIT_REMOTE_MULTIPLE_URLS");
  git(repos.work, "config", "--unset-all", "remote.origin.pushurl");
  git(repos.work, "config", "remote.origin.pushurl", `ext::sh -c touch% ${elsewhere}`);
  const helper = await postGit(h, { operation: "push" });
  assert.is(helper.status, 409, JSON.stringify(helper.body));
  assert.is(helper.body.error!.code, "GIT_REMOTE_URL_UNSUPPORTED");
});

for (const [operation, key] of [
  ["push", "receivepack"],
  ["pull", "uploadpack"],
] as const) {
  t(`${operation}: remote.origin.${key} planted after the request never runs; the execution fails with the code`, async ({ h, repos, marker }) => {
    commitIn(repos.work, "a.md", "a", "Reviewed");
    const before = head(repos.bare);
    const program = `touch '${marker}'; git-${key === "receivepack" ? "receive" : "upload"}-pack`;
    const { done } = await requestThenApprove(h, operation, () => plantConfig(repos.work, `[remote "origin"]\n\t${key} = ${program}`));
    assert.not.ok(existsSync(marker), "the planted program never ran");
    assert.is(done.executionStatus, "failed");
    assert.match(done.executionError ?? "", new RegExp(`^GIT_UNSAFE_CONFIG: .*remote\\.origin\\.${key}`));
    assert.is(head(repos.bare), before);
    // Planted before the request: refused at once, no approval made.
    const res = await postGit(h, { operation });
    assert.is(res.status, 409, JSON.stringify(res.body));
    assert.is(res.body.error!.code, "GIT_UNSAFE_CONFIG");
  });
}

for (const [name, section] of [
  ["core.sshCommand", (m: string) => `[core]\n\tsshCommand = touch '${m}'`],
  ["credential.helper", (m: string) => `[credential]\n\thelper = !touch '${m}'`],
] as const) {
  t(`push and pull: ${name} planted after the request fails the execution, nothing runs`, async ({ h, repos, marker }) => {
    for (const operation of ["push", "pull"] as const) {
      const { done } = await requestThenApprove(h, operation, () => plantConfig(repos.work, section(marker)));
      assert.not.ok(existsSync(marker), `${operation}: the planted program never ran`);
      assert.is(done.executionStatus, "failed", operation);
      assert.match(done.executionError ?? "", /^GIT_UNSAFE_CONFIG: /);
      git(repos.work, "config", "--unset", name);
    }
  });
}

t("an approved push with nothing changed still lands and sets the upstream; an approved pull still merges and updates the tracking branch", async ({ h, base }) => {
  const repos = createRepos(base, { upstream: false });
  const local = commitIn(repos.work, "c.md", "c", "First of its kind");
  const push = await requestThenApprove(h, "push", () => undefined);
  assert.is(push.done.executionStatus, "succeeded", push.done.executionError ?? undefined);
  assert.is(head(repos.bare), local);
  assert.is((await h.json("/api/git")).body.upstream, "origin/main");
  commitIn(repos.colleague, "theirs.md", "t", "Theirs");
  git(repos.colleague, "pull", "--quiet", "--no-rebase", "origin", "main");
  git(repos.colleague, "push", "--quiet", "origin", "HEAD:main");
  const pull = await requestThenApprove(h, "pull", () => undefined);
  assert.is(pull.done.executionStatus, "succeeded", pull.done.executionError ?? undefined);
  assert.ok(existsSync(join(repos.work, "theirs.md")));
  assert.is(git(repos.work, "rev-parse", "refs/remotes/origin/main"), git(repos.bare, "rev-parse", "main"));
  const s = (await h.json("/api/git")).body;
  assert.is(s.behind, 0);
});

t.run();
