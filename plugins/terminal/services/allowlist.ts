// The no-sandbox mode's allowlist (DESIGN §6, issue 22 finding 4). A blocklist over a
// general-purpose PATH cannot be closed (setarch, capsh, `sort --compress-program`, tar's
// `-I<program>`, ... all run a program), so without bubblewrap only these programs run, each
// under rules for its options. None of them runs another program once its refused options
// are gone; what they read and write is checked by path-rules.ts.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { terminalErrors } from "../errors.ts";
import { locateProgram } from "./blocklist.ts";

/** How one allowed program is checked. */
export interface ProgramRule {
  /** Long options refused, also when abbreviated (`--compress-prog` is `--compress-program`). */
  refusedLong?: string[];
  /** Short option letters refused anywhere in a cluster (`-rlo` holds `-o`). */
  refusedShort?: string;
  /**
   * Short option letters that take a value: the rest of the cluster is that value, not more
   * options (`-f/tmp/xR` is `-f` with a file whose name holds an R). A letter missing here
   * only over-refuses; a letter wrongly listed would let a refused one through, so each list
   * is the program's getopt string, no more.
   */
  shortWithValue?: string;
  /** Single-dash words refused as a whole (find's primaries: `-exec`, `-delete`). */
  refusedWords?: string[];
  /** It walks directory trees: always (`true`), or when given one of these options. */
  recursive?: true | { long: string[]; short: string };
  /** Every path it names is written to (created, moved, overwritten). */
  writes?: true;
}

/** Options of every GNU tool that read a list of file names from a file: the names would escape the path check. */
const FILE_LISTS = ["files0-from"];

/** Program → its rule. Everything else is refused without the sandbox. */
export const ALLOWED_PROGRAMS: Record<string, ProgramRule> = {
  // Readers: no option of these runs a program.
  cat: {}, head: {}, tail: {}, cut: {}, tr: {}, cmp: {}, stat: {}, echo: {}, printf: {}, printenv: {}, pwd: {},
  basename: {}, dirname: {}, realpath: {}, true: {}, false: {}, sleep: {}, yes: {}, seq: {}, id: {}, whoami: {}, uname: {}, nproc: {},
  wc: { refusedLong: FILE_LISTS },
  // `date -s` sets the clock (as root); `-f` reads dates from a file (its path is checked like any other).
  date: { refusedLong: ["set"], refusedShort: "s", shortWithValue: "dfrI" },
  // `-c` reads the file names to hash from a file.
  sha256sum: { refusedLong: ["check"], refusedShort: "c" },
  md5sum: { refusedLong: ["check"], refusedShort: "c" },
  // `--compress-program` runs a program; `-o` writes a file; `-T` writes temporary files anywhere.
  sort: { refusedLong: ["compress-program", "output", "temporary-directory", ...FILE_LISTS], refusedShort: "oT", shortWithValue: "kStoTy" },
  // `-R` follows every symlink while it walks (a link in the tree would lead anywhere).
  grep: {
    refusedLong: ["dereference-recursive"],
    refusedShort: "R",
    shortWithValue: "efmABCdDX",
    recursive: { long: ["recursive", "directories"], short: "rd" },
  },
  // `-L` with `-R` follows symlinks to directories while walking.
  ls: { refusedLong: ["dereference"], refusedShort: "L", shortWithValue: "ITw", recursive: { long: ["recursive"], short: "R" } },
  du: { refusedLong: ["dereference", "dereference-args", ...FILE_LISTS], refusedShort: "LD", shortWithValue: "BdtX", recursive: true },
  // GNU diff follows symlinks inside the trees `-r` walks, and `-l` pipes through `pr`.
  diff: { refusedLong: ["recursive", "paginate"], refusedShort: "rl", shortWithValue: "CDFILSUWxX" },
  find: {
    refusedWords: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-files0-from", "-L", "-H", "-follow"],
    recursive: true,
  },
  // Writers: every path they name lies in cwd (path-rules.ts). `uniq IN OUT` writes OUT.
  mkdir: { writes: true },
  touch: { writes: true },
  uniq: { writes: true },
  cp: { refusedLong: ["dereference"], refusedShort: "LH", shortWithValue: "St", writes: true, recursive: { long: ["recursive", "archive"], short: "rRa" } },
  mv: { writes: true },
};

/** Where a system program lives. /usr/local is left out: on many machines it is not root's alone. */
const SYSTEM_DIRS = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"];
const SYSTEM_PATH = SYSTEM_DIRS.join(":");

const blocked = (reason: string) => terminalErrors.TERMINAL_COMMAND_BLOCKED({ reason });

/** Whether `file` is a compiled program (not a script whose interpreter would run instead). */
function isElf(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString("latin1") === "\x7fELF";
  } finally {
    closeSync(fd);
  }
}

/**
 * The file an allowed program name runs: found on the system PATH (never the server's PATH
 * or the cwd), a compiled program in a system directory, owned by root and writable by no
 * one else. `argv[0]` may be the bare name or a path to that same file (`/bin/ls`); a copy,
 * a symlink under an allowed name or a workspace script is refused.
 */
export function systemProgram(argv0: string, cwd: string): { name: string; file: string; rule: ProgramRule } {
  const name = basename(argv0);
  const rule = Object.hasOwn(ALLOWED_PROGRAMS, name) ? ALLOWED_PROGRAMS[name]! : null;
  if (!rule) throw blocked(`${name} is not one of the programs that run without the sandbox (${Object.keys(ALLOWED_PROGRAMS).join(", ")}); install bubblewrap to run others`);
  const file = locateProgram(name, cwd, SYSTEM_PATH);
  if (!file) throw blocked(`${name} is not installed in a system directory`);
  if (argv0.includes("/") && locateProgram(argv0, cwd, "") !== file) throw blocked(`${argv0} is not the system's ${name} (${file})`);
  const stat = statSync(file);
  const systemDir = SYSTEM_DIRS.some((dir) => dirname(file) === dir);
  if (!systemDir || stat.uid !== 0 || (stat.mode & 0o022) !== 0 || !isElf(file)) throw blocked(`${file} is not a system program owned by root`);
  return { name, file, rule };
}

/** The long option an argument names (`--name` or `--name=value`), or null. */
function longName(arg: string): string | null {
  return arg.startsWith("--") && arg.length > 2 ? arg.slice(2).split("=")[0]! : null;
}

/** Whether `arg` is `option` (a long option name) as getopt_long reads it: the name or any abbreviation of it. */
function namesLong(arg: string, option: string): boolean {
  const name = longName(arg);
  return name !== null && name.length > 0 && option.startsWith(name);
}

/**
 * Whether `arg` is a cluster of short options holding one of `letters` (`-rl`, `-xo5`), read
 * as getopt does: after a letter that takes a value, the rest is that value (`-eR` is `-e R`).
 */
function holdsShort(arg: string, letters: string, withValue = ""): boolean {
  if (arg.length < 2 || arg[0] !== "-" || arg[1] === "-") return false;
  for (const letter of arg.slice(1)) {
    if (letters.includes(letter)) return true;
    if (withValue.includes(letter)) return false;
  }
  return false;
}

/** The options of argv, up to `--` (what follows is operands only). */
export function optionArgs(argv: string[]): string[] {
  const end = argv.indexOf("--", 1);
  return argv.slice(1, end === -1 ? undefined : end).filter((arg) => arg.length > 1 && arg.startsWith("-"));
}

/** Throws 403 `TERMINAL_COMMAND_BLOCKED` for an option the program's rule refuses, however it is spelled. */
export function assertOptionsAllowed(name: string, rule: ProgramRule, argv: string[]): void {
  for (const arg of name === "find" ? argv.slice(1) : optionArgs(argv)) {
    const refused =
      rule.refusedWords?.includes(arg) ||
      rule.refusedLong?.some((option) => namesLong(arg, option)) ||
      (rule.refusedShort !== undefined && holdsShort(arg, rule.refusedShort, rule.shortWithValue));
    if (refused) throw blocked(`${name} ${arg}: this option runs a program, follows symlinks, reads file names from a file or writes outside the arguments; it is refused without the sandbox`);
  }
}

/** Whether this invocation walks directory trees. */
export function walksTrees(rule: ProgramRule, argv: string[]): boolean {
  const recursive = rule.recursive;
  if (recursive === true) return true;
  if (!recursive) return false;
  return optionArgs(argv).some((arg) => recursive.long.some((option) => namesLong(arg, option)) || holdsShort(arg, recursive.short, rule.shortWithValue));
}
