// The vetting rules of config-safety.ts, key by key: every setting docs/git.md lists as
// refused is refused, and everyday settings are not (the black-box tests plant the attacks).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { firstUnsafeSetting, parseConfigList, type ConfigEntry } from "../../../plugins/git/services/config-safety.ts";

const t = suite("git config vetting rules");
const entry = (key: string, value: string | null = "x", scope = "local"): ConfigEntry => ({ scope, origin: "file:.git/config", key, value });

t("every documented program setting is refused", () => {
  const refused = [
    "include.path", "includeif.gitdir:/x/.path", "core.sshcommand", "core.askpass", "core.editor", "core.pager", "core.gitproxy",
    "core.hookspath", "core.fsmonitor", "core.alternaterefscommand", "filter.X.clean", "filter.a.b.smudge", "filter.x.process",
    "diff.external", "diff.x.command", "diff.x.textconv", "merge.x.driver", "credential.helper", "credential.https://h.test.helper",
    "gpg.program", "gpg.ssh.program", "gpg.x509.program", "gpg.ssh.defaultkeycommand", "sequence.editor", "pager.status",
    "remote.origin.receivepack", "remote.origin.uploadpack", "remote.origin.vcs", "uploadpack.packobjectshook", "difftool.x.cmd",
    "mergetool.x.path", "interactive.difffilter", "hook.pre-commit.command", "trailer.sign.command", "trailer.sign.cmd",
    "sendemail.tocmd", "sendemail.work.cccmd", "sendemail.smtpserver", "imap.tunnel", "browser.x.cmd", "man.x.path",
    "guitool.x.cmd", "instaweb.httpd", "web.browser",
  ];
  for (const key of refused) assert.is(firstUnsafeSetting([entry(key)])?.key, key, key);
  assert.ok(firstUnsafeSetting([entry("filter.x.clean", null)]), "a bare key (boolean true) counts");
  assert.ok(firstUnsafeSetting([entry("CORE.SSHCOMMAND")]), "keys compare case-insensitively");
});

t("values decide for aliases, submodule updates and merge strategies", () => {
  assert.ok(firstUnsafeSetting([entry("alias.x", "!sh -c id")]));
  assert.ok(firstUnsafeSetting([entry("alias.x", "  !id")]));
  assert.not.ok(firstUnsafeSetting([entry("alias.st", "status")]));
  assert.ok(firstUnsafeSetting([entry("submodule.a.update", "!id")]));
  assert.not.ok(firstUnsafeSetting([entry("submodule.a.update", "rebase")]));
  assert.ok(firstUnsafeSetting([entry("pull.twohead", "evil")]));
  assert.not.ok(firstUnsafeSetting([entry("pull.twohead", "ort")]));
  assert.not.ok(firstUnsafeSetting([entry("pull.octopus", "octopus resolve")]));
});

t("everyday settings and Muster's own command-line settings pass", () => {
  const fine = ["core.bare", "core.autocrlf", "user.name", "remote.origin.url", "remote.origin.pushurl", "remote.origin.fetch", "branch.main.remote", "url.x.insteadof", "diff.x.binary", "filter.lfs.required", "merge.x.name", "merge.tool", "http.proxy"];
  assert.is(firstUnsafeSetting(fine.map((key) => entry(key))), undefined);
  assert.is(firstUnsafeSetting([entry("core.pager", "cat", "command"), entry("core.hookspath", "/dev/null", "command")]), undefined);
});

t("parses git config --list --show-scope --show-origin -z, bare keys and multi-line values included", () => {
  const text = "local\0file:.git/config\0core.bare\nfalse\0local\0file:.git/config\0filter.x.clean\0worktree\0file:.git/config.worktree\0alias.a\nline one\nline two\0";
  assert.equal(parseConfigList(text), [
    { scope: "local", origin: "file:.git/config", key: "core.bare", value: "false" },
    { scope: "local", origin: "file:.git/config", key: "filter.x.clean", value: null },
    { scope: "worktree", origin: "file:.git/config.worktree", key: "alias.a", value: "line one\nline two" },
  ]);
});

t.run();
