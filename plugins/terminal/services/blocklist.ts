// The terminal's command blocklist, checked on parsed argv (never a pattern over the raw
// string): the program is named by the basename of argv[0] both as written and after PATH
// lookup and realpath, so `/usr/bin/../bin/rm`, `\rm`, `"r"m` and a symlink named `ls` that
// points at `rm` are all `rm`. It is the spec's refusal surface in both modes, never the
// boundary: with bubblewrap the sandbox is, without it only the allowlist (allowlist.ts) runs.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, resolve } from "node:path";
import { terminalErrors } from "../errors.ts";

const group = (reason: string, names: string[]) => names.map((name) => [name, reason] as const);

/** Program name → why it is refused. */
const BLOCKED = new Map<string, string>([
  ...group("it deletes or overwrites data beyond recovery", ["rm", "shred", "dd", "wipefs", "mkswap", "fdisk", "sfdisk", "cfdisk", "parted", "truncate"]),
  ...group("it changes the machine's state", [
    "shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "service", "mount", "umount", "swapon", "swapoff",
    "insmod", "rmmod", "modprobe", "sysctl", "iptables", "ip6tables", "nft", "kill", "pkill", "killall", "crontab", "at", "batch",
    "useradd", "userdel", "usermod", "passwd", "chpasswd", "visudo",
  ]),
  ...group("it runs another command (indirection would bypass this list)", [
    "env", "xargs", "sudo", "su", "doas", "pkexec", "runuser", "setpriv", "nice", "ionice", "renice", "timeout", "nohup", "setsid",
    "stdbuf", "time", "chrt", "taskset", "flock", "watch", "script", "strace", "ltrace", "gdb", "unshare", "nsenter", "chroot",
    "prlimit", "bwrap", "firejail", "parallel", "ssh", "exec", "eval", "command", "builtin", "source", ".", "trap", "alias", "busybox", "toybox",
    "ssh-agent", "scp", "sftp", "dbus-run-session", "systemd-run", "start-stop-daemon", "sg", "newgrp", "fakeroot", "faketime", "unbuffer",
    "valgrind", "catchsegv", "perf", "run-parts", "chpst", "daemonize", "socat", "nc", "ncat", "netcat", "tmux", "screen", "xdg-open",
  ]),
  ...group("it is a shell or an interpreter (it runs code given as an argument or a file)", [
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "csh", "tcsh", "fish", "ash", "rbash", "node", "nodejs", "deno", "bun",
    "awk", "gawk", "mawk", "nawk", "sed", "tclsh", "wish", "expect", "osascript", "pwsh", "vim", "vi", "nvim", "ex", "ed", "emacs",
    "sqlite3", "m4",
  ]),
  ...group("it runs commands written in project files (package scripts, recipes)", ["npm", "npx", "pnpm", "yarn", "make", "gmake", "cmake", "ninja"]),
]);

/** Families with version suffixes (`python3.11`, `perl5.36`, `mkfs.ext4`). */
const BLOCKED_FAMILIES: [RegExp, string][] = [
  [/^(python|pypy|perl|ruby|irb|php|lua|luajit|Rscript|julia|java|jshell|guile|racket|scheme|sbcl)[0-9.]*$/, "it is a shell or an interpreter (it runs code given as an argument or a file)"],
  [/^mkfs(\..+)?$|^mke2fs$|^fsck(\..+)?$/, "it formats or repairs a filesystem"],
  // The dynamic loader runs any program named as its argument (`ld-linux-x86-64.so.2 /usr/bin/rm`).
  [/^ld(-linux[^/]*|64)?\.so(\..*)?$|^ld-linux/, "it is the dynamic loader (it runs the program given as an argument)"],
];

/** Options that make an otherwise harmless program run a command or delete files. */
const DANGEROUS_OPTIONS: Record<string, { options: RegExp; reason: string }> = {
  find: { options: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/, reason: "find with -exec, -ok or -delete runs commands or deletes files" },
  tar: {
    // Abbreviations too (GNU tar takes `--checkpoint-act=exec=...`), and -I/-F with an attached program (`-Ish`).
    options: /^--(to-c|use-c|checkpoint-a|info-s|new-v|rmt|rsh)|^-[^-]*[IF]/,
    reason: "these tar options run a command",
  },
  rsync: { options: /^(-e|--rsh|--rsync-path)(=|$)|^-[a-zA-Z]*e/, reason: "rsync -e runs a command" },
  git: {
    options: /^(-c|--config-env|--exec-path|--upload-pack|--receive-pack|config|difftool|mergetool|filter-branch|daemon|instaweb|submodule|bisect|rebase)(=|$)/,
    reason: "this git option or command can run a command of the caller's choice",
  },
  zip: { options: /^(-T|-TT|--unzip-command|--test)(=|$)/, reason: "zip -TT runs a command" },
};

/** Why a program name is refused, or null. */
function reasonFor(name: string): string | null {
  const exact = BLOCKED.get(name);
  if (exact) return exact;
  for (const [pattern, reason] of BLOCKED_FAMILIES) if (pattern.test(name)) return reason;
  return null;
}

/** The real path of the program argv[0] names, as `execvp` would find it; null when there is none. */
export function locateProgram(program: string, cwd: string, path: string): string | null {
  const candidates = program.includes("/") ? [isAbsolute(program) ? program : resolve(cwd, program)] : path.split(delimiter).filter(Boolean).map((dir) => resolve(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      if (statSync(real).isFile()) return real;
    } catch {
      // not here; try the next PATH entry
    }
  }
  return null;
}

/**
 * Throws 403 `TERMINAL_COMMAND_BLOCKED` when argv runs a blocked program or a program with
 * an option that runs commands. The program is checked under the name it was called by and
 * under the name of the file it resolves to (`located`, from {@link locateProgram}).
 */
export function assertAllowed(argv: string[], located: string | null): void {
  const names = new Set([basename(argv[0]!)]);
  if (located) names.add(basename(located));
  for (const name of names) {
    const reason = reasonFor(name);
    if (reason) throw terminalErrors.TERMINAL_COMMAND_BLOCKED({ reason: `${name}: ${reason}` });
    const rule = DANGEROUS_OPTIONS[name];
    const option = rule && argv.slice(1).find((arg) => rule.options.test(arg));
    if (rule && option !== undefined) throw terminalErrors.TERMINAL_COMMAND_BLOCKED({ reason: `${name} ${option}: ${rule.reason}` });
  }
}

/**
 * Programs that run commands written in the files they work on, which an agent can write
 * first: git runs hooks, fsmonitor, filter drivers (`.gitattributes`), external diff and
 * `!` aliases from the repository's own configuration. In the sandbox that is contained;
 * without it, git is refused and `/api/git` (hooks off, push and pull gated) is the way.
 */
const RUNS_REPOSITORY_CONFIG = new Set(["git"]);

/** Without the sandbox only: refuses programs that execute configuration found in the working tree. */
export function assertNoRepositoryCommands(argv: string[], located: string | null): void {
  for (const name of new Set([basename(argv[0] ?? ""), ...(located ? [basename(located)] : [])])) {
    if (RUNS_REPOSITORY_CONFIG.has(name)) {
      throw terminalErrors.TERMINAL_COMMAND_BLOCKED({ reason: `without the sandbox ${name} would run commands named in repository files (hooks, filters, aliases); use /api/git` });
    }
  }
}
