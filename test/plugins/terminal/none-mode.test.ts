// Without the sandbox: one program, no shell. Every bypass of the old regex blocklist
// (quoting, substitutions, chaining, indirection, path tricks) is refused before anything
// runs, and the file it aimed at is untouched.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { processesMatching, scratch, startTerminalHost, terminal, type TerminalHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ th: TerminalHost; dir: string }>("terminal without a sandbox");

t.before(async (ctx) => {
  ctx.th = await startTerminalHost({ sandbox: "none" });
  ctx.dir = scratch();
  writeFileSync(join(ctx.dir, "victim"), "precious");
});
t.after(async (ctx) => {
  await ctx.th.h.stop();
  removeHome(ctx.th.h.home);
  rmSync(ctx.dir, { recursive: true, force: true });
});

t("runs one program with quoted arguments taken literally", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: `echo "hello  world" 'a|b;c' '$HOME' "it's" x\\ y`, cwd: dir });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(Object.keys(res.body).sort(), ["durationMs", "exitCode", "ok", "output", "sandbox", "timedOut", "truncated"]);
  assert.is(res.body.output, "hello  world a|b;c $HOME it's x y\n");
  assert.is(res.body.exitCode, 0);
  assert.is(res.body.sandbox, "none");
  assert.is(res.body.truncated, false);
  assert.is(res.body.timedOut, false);
  assert.ok(Number.isInteger(res.body.durationMs));
});

t("a failing program is still ok:true with its exit code; a program not on the allowlist is 403", async ({ th, dir }) => {
  const failed = await terminal(th.h, { command: "ls ./no-such-file", cwd: dir });
  assert.is(failed.status, 200);
  assert.is(failed.body.exitCode, 2);
  assert.match(failed.body.output, /no-such-file/);
  const unknown = await terminal(th.h, { command: "no-such-program-4711", cwd: dir });
  assert.is(unknown.status, 403);
  assert.is(unknown.body.error?.code, "TERMINAL_COMMAND_BLOCKED");
});

const SHELL_SYNTAX = [
  "echo a | cat",
  "echo a > written",
  "echo a >> written",
  "cat < victim",
  "touch written; ls",
  "touch written && ls",
  "false || touch written",
  "touch written &",
  "echo $(touch written)",
  "echo `touch written`",
  "echo $HOME",
  "echo ${IFS}x",
  "echo \"$(touch written)\"",
  "ls *",
  "ls vic?im",
  "ls [v]ictim",
  "touch written\nls",
  "X=1 touch written",
  "ls ~",
  "(touch written)",
  "echo a #comment",
];

t("shell syntax is refused with 400 TERMINAL_SHELL_SYNTAX and nothing runs", async ({ th, dir }) => {
  for (const command of SHELL_SYNTAX) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 400, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_SHELL_SYNTAX", command);
  }
  assert.not.ok(existsSync(join(dir, "written")));
});

t("unterminated quotes are a 400 TERMINAL_COMMAND_INVALID", async ({ th, dir }) => {
  for (const command of ["echo 'open", 'echo "open', "echo \\"]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 400, command);
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_INVALID", command);
  }
});

t("blocklisted programs are refused however they are spelled or wrapped; the target survives", async ({ th, dir }) => {
  symlinkSync("/usr/bin/rm", join(dir, "ls"));
  symlinkSync("/usr/bin/rm", join(dir, "rmlink"));
  const bypasses = [
    "rm victim",
    "rm -rf victim",
    "/usr/bin/../bin/rm victim",
    "/bin/rm victim",
    "\\rm victim",
    '"r"m victim',
    "r''m victim",
    "'rm' victim",
    "./rmlink victim",
    "./ls victim",
    "env X=1 rm victim",
    "env rm victim",
    "xargs rm",
    "sudo rm victim",
    "nice rm victim",
    "timeout 5 rm victim",
    "nohup rm victim",
    "setsid rm victim",
    "busybox rm victim",
    'sh -c "rm victim"',
    "bash -c 'rm victim'",
    "/bin/sh -c 'rm victim'",
    "python3 -c 'import os; os.remove(\"victim\")'",
    "python3.11 -c pass",
    "node -e 'require(\"fs\").unlinkSync(\"victim\")'",
    "perl -e 'unlink \"victim\"'",
    "awk 'BEGIN { system(\"rm victim\") }'",
    "find . -name victim -delete",
    "find . -name victim -exec rm '{}' '+'",
    "dd if=/dev/zero of=victim",
    "mkfs.ext4 victim",
    "shred victim",
    "truncate -s 0 victim",
    "shutdown now",
    "kill -9 1",
    "git -c core.pager=rm log",
    "tar --to-command=rm -xf x.tar",
    "npm run anything",
  ];
  for (const command of bypasses) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_BLOCKED", command);
  }
  assert.is(readFileSync(join(dir, "victim"), "utf8"), "precious");
});

t("programs that run another program are refused: the loader, sqlite3 .shell, ssh-agent, a copy of rm, a #! script", async ({ th, dir }) => {
  copyFileSync("/usr/bin/rm", join(dir, "tidy"));
  chmodSync(join(dir, "tidy"), 0o755);
  writeFileSync(join(dir, "clean.sh"), "#!/bin/sh\nrm victim\n", { mode: 0o755 });
  writeFileSync(join(dir, "clean.py"), "#!/usr/bin/env python3\nimport os; os.remove('victim')\n", { mode: 0o755 });
  for (const command of ["/lib64/ld-linux-x86-64.so.2 /usr/bin/rm victim", "sqlite3 :memory: '.shell rm victim'", "ssh-agent /usr/bin/rm victim", "./tidy victim", "./clean.sh", "./clean.py"]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_BLOCKED", command);
  }
  assert.is(readFileSync(join(dir, "victim"), "utf8"), "precious");
  // Not even a copy of an allowed program runs: only the system's own file.
  copyFileSync("/usr/bin/echo", join(dir, "echo"));
  chmodSync(join(dir, "echo"), 0o755);
  const copy = await terminal(th.h, { command: "./echo hi", cwd: dir });
  assert.is(copy.status, 403, JSON.stringify(copy.body));
  assert.is(copy.body.error?.code, "TERMINAL_COMMAND_BLOCKED");
  const ok = await terminal(th.h, { command: "/bin/echo hi", cwd: dir });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  assert.is(ok.body.output, "hi\n");
});

t("arguments naming process environments, Muster's data directory or credential stores are refused", async ({ th, dir }) => {
  symlinkSync("/proc/self", join(dir, "me"));
  const home = th.h.home;
  for (const command of [
    `cat /proc/${process.pid}/environ`,
    "cat /proc/self/environ",
    "cat me/environ",
    "cat /etc/shadow",
    `ls ${join(homedir(), ".ssh")}`,
    `cat ${home}/session-token`,
    `cat ${relative(dir, join(home, "session-token"))}`,
    `ls ${home}`,
    "head --lines=1 /proc/1/environ",
    "grep -r-l x -f/proc/1/environ",
  ]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_PATH_FORBIDDEN", command);
  }
  const workspace = await terminal(th.h, { command: `ls ${th.h.workspace}`, cwd: dir });
  assert.is(workspace.status, 200, "the workspace inside MUSTER_HOME stays usable");
});

t("a blocked command is recorded as an activity", async ({ th, dir }) => {
  await terminal(th.h, { command: "rm victim", cwd: dir });
  const list = await th.h.json<ApiBody<"getActivities">>("/api/activities?limit=5");
  const blocked = list.body.find((a) => a.action === "terminal.command.blocked");
  assert.ok(blocked, JSON.stringify(list.body));
  assert.is(blocked.target, dir);
  assert.match(String(blocked.details), /rm victim/);
});

t("a timed-out program is killed: timedOut, exit 137, nothing left running", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "sleep 29.713", cwd: dir, timeoutMs: 300 });
  assert.is(res.status, 200);
  assert.is(res.body.timedOut, true);
  assert.is(res.body.exitCode, 137);
  assert.ok(await waitUntil(() => processesMatching("sleep 29.713").length === 0, { timeoutMs: 2000 }));
});

t("an output flood is cut at 1 MiB, the program killed, and the server keeps answering", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "yes muster-flood-7731", cwd: dir });
  assert.is(res.status, 200);
  assert.is(res.body.truncated, true);
  assert.is(Buffer.byteLength(res.body.output), 1024 * 1024);
  assert.ok(await waitUntil(() => processesMatching("muster-flood-7731").length === 0, { timeoutMs: 2000 }));
  const next = await terminal(th.h, { command: "echo still here", cwd: dir });
  assert.is(next.body.output, "still here\n");
});

t("terminal escape sequences are stripped and carriage returns become line breaks", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "printf '\\033]52;c;SGVsbG8=\\007red\\033[31mX\\033[0m\\rY\\033]0;title\\033\\\\'", cwd: dir });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.output, "redX\nY");
});

t("git is refused without the sandbox: a hook or alias planted in the repository would run a shell command", async ({ th, dir }) => {
  const repo = join(dir, "repo");
  for (const command of [`git init -q ${repo}`, `git -C ${repo} status`, "git --version"]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, JSON.stringify(res.body));
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_BLOCKED");
    assert.match(res.body.error?.message ?? "", /\/api\/git/);
  }
  assert.not.ok(existsSync(repo), "nothing ran");
  // The same by full path, and through a symlink with another name.
  symlinkSync("/usr/bin/git", join(dir, "g"));
  for (const command of ["/usr/bin/git status", "./g status"]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, command);
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_BLOCKED");
  }
});

t.run();
