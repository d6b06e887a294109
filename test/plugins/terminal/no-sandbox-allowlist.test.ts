// Issue 22, findings 4 and 5: the opt-in unsandboxed mode (terminal.sandbox "none") runs only
// allowlisted system programs under option rules, and never reads Muster's data directory,
// a parent of it given to a recursive program (the cwd included), another instance's data
// directory or /proc, whatever the spelling: relative paths, `..`, symlinks, abbreviated or
// attached options, `--`. Each command here ran (or printed the secret) before the fix.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { removeHome } from "../../helpers/start-test-host.ts";
import { scratch, startTerminalHost, terminal, type TerminalHost } from "./helpers.ts";

const t = suite<{ th: TerminalHost; other: TerminalHost; dir: string }>("terminal without a sandbox: the allowlist");
const PASSPHRASE = "terminal-test-passphrase";

t.before(async (ctx) => {
  ctx.th = await startTerminalHost({ sandbox: "none" });
  ctx.other = await startTerminalHost({ sandbox: "none" });
  ctx.dir = scratch();
  writeFileSync(join(ctx.dir, "victim"), "precious\n");
});
t.after(async (ctx) => {
  for (const th of [ctx.th, ctx.other]) {
    await th.h.stop();
    removeHome(th.h.home);
  }
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Asserts 403 with `code` for every command, and that no answer carries a secret. */
async function refused(th: TerminalHost, commands: string[], code: string, cwd: string) {
  const secrets = [th.h.token, PASSPHRASE];
  for (const command of commands) {
    const res = await terminal(th.h, { command, cwd });
    assert.is(res.status, 403, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, code, command);
    for (const secret of secrets) assert.not.ok(JSON.stringify(res.body).includes(secret), command);
  }
}

t("finding 4: programs and options that run a program are refused, and nothing ran", async ({ th, dir }) => {
  // A two-level shebang: ./outer's interpreter is ./inner, a script whose own interpreter is sh.
  writeFileSync(join(dir, "inner"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
  writeFileSync(join(dir, "outer"), `#!${join(dir, "inner")}\n`, { mode: 0o755 });
  writeFileSync(join(dir, "x.c"), "int main(){return 0;}\n");
  await refused(
    th,
    [
      "setarch x86_64 /bin/sh -c 'touch pwned'",
      "linux64 /bin/sh -c 'touch pwned'",
      "logsave /dev/null /bin/sh -c 'touch pwned'",
      "capsh -- -c 'touch pwned'",
      "view -es -c '!touch pwned' -c q",
      "gcc -wrapper /bin/sh,-c,'touch pwned' x.c",
      "apt-get -o 'APT::Update::Pre-Invoke::=touch pwned' update",
      "dpkg --pre-invoke='touch pwned' --configure -a",
      "sort --compress-program=/bin/sh victim",
      "sort --compress-prog=/bin/sh victim",
      "sort --comp=/bin/sh victim",
      "sort -S 1 -o victim victim",
      "wget --use-askpass=./inner http://127.0.0.1/",
      "tar --checkpoint=1 --checkpoint-act=exec='touch pwned' -cf x.tar victim",
      "tar -I./inner -cf x.tar victim",
      "tar -c -f x.tar -Ish victim",
      "./outer",
      "./inner",
      "find . -exec touch pwned \\;",
      "find . -ok touch pwned \\;",
      "find . -fprint pwned",
      "find -L . -name victim",
      "grep -R x .",
      "diff -r . .",
      "date -s 2000-01-01",
      "sha256sum -c victim",
      "wc --files0-from=victim",
      "awk 'BEGIN{system(\"touch pwned\")}'",
      "make -C . all",
    ],
    "TERMINAL_COMMAND_BLOCKED",
    dir,
  );
  assert.not.ok(existsSync(join(dir, "pwned")), "nothing ran");
  assert.not.ok(existsSync(join(dir, "x.tar")));
});

t("allowed programs still work: reading, searching, listing and writing inside cwd", async ({ th, dir }) => {
  for (const [command, output] of [
    ["cat victim", "precious\n"],
    ["grep -c prec victim", "1\n"],
    ["sort -r victim", "precious\n"],
    ["find . -name victim", "./victim\n"],
    ["mkdir -p made/sub", ""],
    ["touch made/sub/file", ""],
    ["cp victim made/copy", ""],
    ["ls made", "copy\nsub\n"],
    ["grep -rl prec made", "made/copy\n"],
  ] as const) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 200, `${command}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.output, output, command);
  }
});

t("a program is the system's file: a copy or a script under an allowed name is refused", async ({ th, dir }) => {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "cat"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
  symlinkSync("/usr/bin/rm", join(bin, "ls"));
  await refused(th, ["bin/cat victim", "./bin/cat victim", `${bin}/cat victim`, "bin/ls victim"], "TERMINAL_COMMAND_BLOCKED", dir);
  assert.not.ok(existsSync(join(dir, "pwned")));
  assert.is(readFileSync(join(dir, "victim"), "utf8"), "precious\n");
});

t("finding 5: a parent of Muster's data directory is never walked, however it is named", async ({ th, dir }) => {
  const home = th.h.home;
  const parent = dirname(home); // the temp directory: it holds this MUSTER_HOME
  symlinkSync(parent, join(dir, "up"));
  const token = th.h.token;
  await refused(
    th,
    [
      `grep -r ${token} ${parent}`,
      `grep -rl ${token} ..`,
      `grep -r ${token} up`,
      `grep -r ${token} up/`,
      `grep --recursive ${token} ${parent}`,
      `grep --recur ${token} ${parent}`,
      `grep -d recurse ${token} ${parent}`,
      `grep --directories=recurse ${token} ${parent}`,
      `grep -r -e ${token} -- ${parent}`,
      `grep -sr ${token} ${dir}/..`,
      "grep -r --include=environ VAULT_KEY /",
      `find ${parent} -name session-token`,
      "find / -name environ",
      `du -a ${parent}`,
      `ls -R ${parent}`,
      `ls --recursive ${parent}`,
      `cp -r ${parent} copied`,
      `cp -a up copied`,
    ],
    "TERMINAL_PATH_FORBIDDEN",
    dir,
  );
  assert.not.ok(existsSync(join(dir, "copied")));
});

t("finding 5: with the parent as cwd, a recursive program without a path is refused (it would walk the cwd)", async ({ th }) => {
  const parent = dirname(th.h.home);
  await refused(th, [`grep -r ${th.h.token}`, "find", "find -name session-token", "du", "ls -R"], "TERMINAL_PATH_FORBIDDEN", parent);
});

t("finding 5: files inside a data directory, this one's or another instance's, or /proc are refused", async ({ th, other, dir }) => {
  const home = th.h.home;
  symlinkSync(home, join(dir, "data"));
  symlinkSync(th.h.workspace, join(dir, "ws"));
  symlinkSync("/proc/self", join(dir, "me"));
  await refused(
    th,
    [
      `cat ${home}/session-token`,
      `cat ${relative(dir, join(home, "session-token"))}`,
      `cat ${home}/workspace/../session-token`,
      // `..` after a symlink is the link target's parent (as the kernel reads it), not the link's directory.
      "cat ws/../session-token",
      "cat data/session-token",
      "head -n1 data/missing/../session-token",
      `grep -f${home}/session-token victim`,
      `grep -f ${relative(dir, home)}/session-token victim`,
      `grep --file=${home}/session-token victim`,
      `cat ${other.h.home}/session-token`,
      `cat ../${basename(other.h.home)}/session-token`,
      `cat /proc/${process.pid}/environ`,
      "cat me/environ",
      "grep -a VAULT /proc/self/environ",
      `date -f ${home}/session-token`,
    ],
    "TERMINAL_PATH_FORBIDDEN",
    dir,
  );
  await refused(th, [`tar -C ${home} -cf - session-token`, `tar --directory=${home} -cf - .`, `make -C ${home}`], "TERMINAL_COMMAND_BLOCKED", dir);
  const workspace = await terminal(th.h, { command: `ls ${th.h.workspace}`, cwd: dir });
  assert.is(workspace.status, 200, "the workspace inside MUSTER_HOME stays usable");
});

t("an option's attached value is read as its value, never as more options (getopt's reading)", async ({ th, dir }) => {
  // Each value holds a letter the program refuses as an option (grep -R, sort -o, ls -L, cp -H).
  writeFileSync(join(dir, "patterns-XRL"), "precious\n");
  for (const command of ["grep -eR victim", "grep -ie precious victim", `grep -f${join(dir, "patterns-XRL")} victim`, "sort -toR victim", "ls -IL", "ls -w80R"]) {
    const res = await terminal(th.h, { command, cwd: dir });
    assert.is(res.status, 200, `${command}: ${JSON.stringify(res.body)}`);
  }
  // A refused letter before the value-taking one is still an option.
  await refused(th, ["grep -Re x victim", "sort -oT x victim", "ls -Lw80"], "TERMINAL_COMMAND_BLOCKED", dir);
});

t("writers write only inside cwd, never under a dot entry: no .git, no start-up file, nothing outside", async ({ th, dir }) => {
  const outside = scratch("muster-term-outside-");
  try {
    await refused(
      th,
      [
        `touch ${outside}/planted`,
        "touch ../planted-here",
        "mkdir .git",
        "touch .gitattributes",
        "cp victim .bashrc",
        `cp victim ${outside}`,
        `cp -t ${outside} victim`,
        `cp --target-directory=${outside} victim`,
        `mv victim ${outside}/moved`,
        `uniq victim ${outside}/out`,
        `cp ${th.h.home}/session-token stolen`,
      ],
      "TERMINAL_PATH_FORBIDDEN",
      dir,
    );
    assert.equal(readFileSync(join(dir, "victim"), "utf8"), "precious\n");
    assert.not.ok(existsSync(join(dir, ".git")));
    assert.not.ok(existsSync(join(outside, "planted")));
    assert.not.ok(existsSync(join(dir, "stolen")));
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

t("the working directory is never inside a Muster checkout or another instance's data directory", async ({ th, other, dir }) => {
  const checkout = join(dir, "muster");
  mkdirSync(join(checkout, "core"), { recursive: true });
  writeFileSync(join(checkout, "package.json"), JSON.stringify({ name: "muster" }));
  writeFileSync(join(checkout, "core", "host.ts"), "// original\n");
  for (const cwd of [checkout, join(checkout, "core"), other.h.home]) {
    const res = await terminal(th.h, { command: "touch planted", cwd });
    assert.is(res.status, 403, `${cwd}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_CWD_FORBIDDEN", cwd);
  }
  assert.not.ok(existsSync(join(checkout, "core", "planted")));
  // From the directory above, the checkout is not writable either.
  await refused(th, ["touch muster/core/planted", "cp victim muster/core/host.ts"], "TERMINAL_PATH_FORBIDDEN", dir);
  assert.is(readFileSync(join(checkout, "core", "host.ts"), "utf8"), "// original\n");
});

t.run();
