// Git runs no program that a repository file names (issue 22, finding 1). A sandboxed command
// can write the workspace's .git/config and .gitattributes; the next status or commit through
// the API must not run what they name, outside the sandbox, as Muster's user.
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestHost } from "../../helpers/start-test-host.ts";
import { git, gitSuite, leavesMarker, plantConfig, postGit, type Repos } from "./helpers.ts";

const t = gitSuite<{ h: TestHost; base: string; repos: Repos; marker: string }>("git refuses repositories whose config names a program", (ctx) => {
  ctx.marker = join(ctx.base, "planted-program-ran");
});

/** Commits through the API and expects the refusal that names `key`, with nothing run and nothing committed. */
async function expectRefused(h: TestHost, repos: Repos, marker: string, key: string) {
  const before = git(repos.work, "rev-parse", "HEAD");
  const res = await postGit(h, { operation: "commit", message: "Agent's commit" });
  assert.not.ok(existsSync(marker), `${key}: the planted program never ran`);
  assert.is(res.status, 409, `${key}: ${JSON.stringify(res.body)}`);
  assert.is(res.body.error!.code, "GIT_UNSAFE_CONFIG", key);
  assert.ok(res.body.error!.message.includes(key), `${key} is named: ${res.body.error!.message}`);
  assert.is(git(repos.work, "rev-parse", "HEAD"), before, `${key}: nothing was committed`);
}

/** Runs `check` with `section` planted in .git/config, then puts the file back as it was. */
async function withPlanted(repos: Repos, section: string, check: () => Promise<void>) {
  const file = join(repos.work, ".git", "config");
  const original = readFileSync(file, "utf8");
  plantConfig(repos.work, section);
  try {
    await check();
  } finally {
    writeFileSync(file, original);
  }
}

t("a clean filter planted in .git/config and .gitattributes: commit and status refused, the filter never runs", async ({ h, repos, marker }) => {
  plantConfig(repos.work, `[filter "x"]\n\tclean = ${leavesMarker(marker)}`);
  writeFileSync(join(repos.work, ".gitattributes"), "*.md filter=x\n");
  writeFileSync(join(repos.work, "notes.md"), "agent notes\n");
  await expectRefused(h, repos, marker, "filter.x.clean");
  const status = await h.json("/api/git");
  assert.is(status.status, 409, JSON.stringify(status.body));
  assert.is(status.body.error!.code, "GIT_UNSAFE_CONFIG");
  assert.not.ok(existsSync(marker));
});

t("smudge and process filters, diff and merge drivers named through .git/info/attributes are refused", async ({ h, repos, marker }) => {
  mkdirSync(join(repos.work, ".git", "info"), { recursive: true });
  writeFileSync(join(repos.work, ".git", "info", "attributes"), "* filter=x diff=x merge=x\n");
  writeFileSync(join(repos.work, "file.txt"), "changed\n");
  for (const [section, key] of [
    [`[filter "x"]\n\tprocess = ${leavesMarker(marker)}`, "filter.x.process"],
    [`[filter "x"]\n\tsmudge = ${leavesMarker(marker)}`, "filter.x.smudge"],
    [`[diff "x"]\n\ttextconv = ${leavesMarker(marker)}`, "diff.x.textconv"],
    [`[diff "x"]\n\tcommand = ${leavesMarker(marker)}`, "diff.x.command"],
    [`[diff]\n\texternal = ${leavesMarker(marker)}`, "diff.external"],
    [`[merge "x"]\n\tdriver = ${leavesMarker(marker)}`, "merge.x.driver"],
  ]) {
    await withPlanted(repos, section!, () => expectRefused(h, repos, marker, key!));
  }
});

t("every other setting that runs a program or reads another file is refused, and named", async ({ h, repos, base, marker }) => {
  writeFileSync(join(repos.work, "new.md"), "n");
  const included = join(base, "included.config");
  writeFileSync(included, `[filter "x"]\n\tclean = ${leavesMarker(marker)}\n`);
  const cases: [string, string][] = [
    [`[core]\n\tsshCommand = ${leavesMarker(marker)}`, "core.sshcommand"],
    [`[credential]\n\thelper = !${leavesMarker(marker)}`, "credential.helper"],
    [`[credential "https://example.test"]\n\thelper = !${leavesMarker(marker)}`, "credential.https://example.test.helper"],
    [`[gpg]\n\tprogram = ${marker}`, "gpg.program"],
    [`[gpg "ssh"]\n\tprogram = ${marker}`, "gpg.ssh.program"],
    [`[core]\n\taskPass = ${marker}`, "core.askpass"],
    [`[core]\n\teditor = ${marker}`, "core.editor"],
    [`[sequence]\n\teditor = ${marker}`, "sequence.editor"],
    [`[core]\n\tpager = ${marker}`, "core.pager"],
    [`[core]\n\tfsmonitor = ${marker}`, "core.fsmonitor"],
    [`[core]\n\thooksPath = ${base}`, "core.hookspath"],
    [`[core]\n\tgitProxy = ${marker}`, "core.gitproxy"],
    [`[remote "origin"]\n\treceivepack = ${marker}`, "remote.origin.receivepack"],
    [`[remote "origin"]\n\tuploadpack = ${marker}`, "remote.origin.uploadpack"],
    [`[uploadpack]\n\tpackObjectsHook = ${marker}`, "uploadpack.packobjectshook"],
    [`[alias]\n\tst = !${leavesMarker(marker)}`, "alias.st"],
    [`[include]\n\tpath = ${included}`, "include.path"],
    [`[includeIf "gitdir:/"]\n\tpath = ${included}`, "includeif.gitdir:/.path"],
  ];
  for (const [section, key] of cases) await withPlanted(repos, section, () => expectRefused(h, repos, marker, key));
});

t("a worktree config file is vetted like .git/config", async ({ h, repos, marker }) => {
  git(repos.work, "config", "extensions.worktreeConfig", "true");
  writeFileSync(join(repos.work, ".git", "config.worktree"), `[filter "x"]\n\tclean = ${leavesMarker(marker)}\n`);
  writeFileSync(join(repos.work, ".gitattributes"), "*.md filter=x\n");
  writeFileSync(join(repos.work, "a.md"), "a\n");
  await expectRefused(h, repos, marker, "filter.x.clean");
});

t("harmless settings and attributes naming undefined drivers still commit", async ({ h, repos }) => {
  plantConfig(repos.work, `[core]\n\tautocrlf = false\n[alias]\n\tst = status\n[diff "x"]\n\tbinary = true`);
  writeFileSync(join(repos.work, ".gitattributes"), "*.md filter=x diff=x merge=x\n");
  writeFileSync(join(repos.work, "a.md"), "a\n");
  const res = await postGit(h, { operation: "commit", message: "Fine" });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is((await h.json("/api/git")).status, 200);
});

t("the user's global and system git config is not read: a filter there never runs; only the identity is taken from it", async ({ h, repos, base, marker }) => {
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".gitconfig"), `[user]\n\tname = Global Person\n\temail = global@example.test\n[filter "x"]\n\tclean = ${leavesMarker(marker)}\n`);
  git(repos.work, "config", "--unset", "user.name");
  git(repos.work, "config", "--unset", "user.email");
  writeFileSync(join(repos.work, ".gitattributes"), "*.md filter=x\n");
  writeFileSync(join(repos.work, "a.md"), "a\n");
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  try {
    const res = await postGit(h, { operation: "commit", message: "Global identity" });
    assert.is(res.status, 201, JSON.stringify(res.body));
  } finally {
    for (const [name, value] of Object.entries(saved)) value === undefined ? delete process.env[name] : (process.env[name] = value);
  }
  assert.not.ok(existsSync(marker), "the global filter never ran");
  assert.is(git(repos.work, "log", "-1", "--format=%an <%ae>"), "Global Person <global@example.test>");
});

t.run();
