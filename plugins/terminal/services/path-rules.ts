// What an unsandboxed command may read and write (DESIGN §6, issue 22 finding 5). It runs as
// Muster's own user, so the rules are checked on every path its arguments could name, after
// `..` and symlinks are resolved:
//   - nothing inside a protected place: /proc and /sys (/proc/<server pid>/environ holds
//     VAULT_KEY), Muster's data directory (the workspace excepted), any other instance's data
//     directory, credential stores;
//   - a program that walks trees never starts at a directory that holds a protected place or
//     a Muster installation, the cwd included (a recursive tool without a path walks it);
//   - a program that writes names only paths inside the cwd, under no dot entry (`.git`,
//     `.bashrc`) and in no Muster installation or data directory.
// Every argument is a candidate path, whole, as an option's value (`--file=x`) and as each
// tail of a short-option cluster (`-f/x`, `-fx`), so no option spelling hides a path. The
// allowlist (allowlist.ts) has no program that resolves paths against another directory
// (`tar -C`, `make -C`) or reads file names from a file.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { terminalErrors } from "../errors.ts";
import type { ProgramRule } from "./allowlist.ts";
import { walksTrees } from "./allowlist.ts";
import { enclosingMusterPlace, musterPlacesBelow, RUNNING_INSTALLATION } from "./muster-places.ts";
import { isInside, realPathLoose, type MusterData } from "./working-directory.ts";

const SYSTEM = ["/proc", "/sys", "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/root/.ssh"];
const IN_HOME = [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".config/gcloud", ".config/gh", ".password-store"];

/** The paths one argument may name: itself, an option's value (`--file=x`), every tail of a short-option cluster (`-fx`, `-f/x`). */
function candidates(arg: string): string[] {
  const found = [arg];
  if (arg.startsWith("--")) {
    const eq = arg.indexOf("=");
    if (eq >= 0) found.push(arg.slice(eq + 1));
  } else if (arg.startsWith("-")) {
    for (let i = 1; i < arg.length; i++) found.push(arg.slice(i));
  }
  return found.filter((candidate) => candidate.length > 0);
}

const forbidden = (arg: string, reason: string) => terminalErrors.TERMINAL_PATH_FORBIDDEN({ arg, reason });

interface Places {
  /** Nothing inside these is read. */
  closed: string[];
  data: MusterData;
}

function places(data: MusterData): Places {
  const home = realPathLoose(homedir());
  return { closed: [...SYSTEM, ...IN_HOME.map((entry) => join(home, entry))].map(realPathLoose), data };
}

/** Why reading `path` is refused, or null. */
function readRefusal(path: string, { closed, data }: Places): string | null {
  if (isInside(data.workspace, path)) return null;
  if (isInside(data.home, path)) return "it is inside Muster's data directory";
  if (closed.some((root) => isInside(root, path))) return "it is inside /proc, /sys or a credential store";
  const other = enclosingMusterPlace(path);
  if (other?.kind === "data directory") return `it is inside a Muster data directory (${other.dir})`;
  return null;
}

/** Why walking the tree at `root` is refused, or null: it holds a protected place or a Muster installation. */
function walkRefusal(root: string, { closed, data }: Places): string | null {
  const inside = [...closed, data.home].find((place) => isInside(root, place) && !isInside(data.workspace, root));
  if (inside) return `a recursive program would walk into ${inside}`;
  let directory = false;
  try {
    directory = statSync(root).isDirectory();
  } catch {
    return null;
  }
  const below = directory ? musterPlacesBelow(root, [RUNNING_INSTALLATION, data.home]) : [];
  return below.length > 0 ? `a recursive program would walk into the Muster installation or data directory ${below[0]}` : null;
}

/** Why writing `path` is refused, or null: only inside cwd, under no dot entry, outside Muster's places. */
function writeRefusal(path: string, cwd: string): string | null {
  if (!isInside(cwd, path)) return "a program that writes may only name paths inside the working directory";
  if (relative(cwd, path).split(sep).some((part) => part.startsWith("."))) return "a program that writes may not name a dot entry (.git, .bashrc, ...)";
  const place = enclosingMusterPlace(path);
  if (place && isInside(cwd, place.dir) && place.dir !== cwd) return `it is inside a Muster ${place.kind} (${place.dir})`;
  return null;
}

/**
 * Throws 403 `TERMINAL_PATH_FORBIDDEN` when the unsandboxed program `rule` would read, walk or
 * write a place it may not. `cwd` is a checked real path (working-directory.ts).
 */
export function assertPathsAllowed(argv: string[], cwd: string, data: MusterData, rule: ProgramRule): void {
  const known = places(data);
  const walks = walksTrees(rule, argv);
  if (walks) {
    const why = walkRefusal(cwd, known);
    if (why) throw forbidden(".", `the working directory: ${why}; run it from a directory that holds no Muster data`);
  }
  for (const arg of argv.slice(1)) {
    for (const candidate of candidates(arg)) {
      // Joined as text, never path.resolve: that would drop `..` after a symlink before realpath sees it.
      const path = realPathLoose(isAbsolute(candidate) ? candidate : `${cwd}/${candidate}`);
      const why = readRefusal(path, known) ?? (walks ? walkRefusal(path, known) : null) ?? (rule.writes ? writeRefusal(path, cwd) : null);
      if (why) throw forbidden(candidate, why);
    }
  }
}
