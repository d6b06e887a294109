// Without the sandbox a command runs as Muster's own user, so any file that user can read is
// readable. This guard refuses arguments naming the places where that matters most: other
// processes' environments (/proc/<server pid>/environ holds VAULT_KEY), Muster's data directory
// (session token, database), and the usual credential stores. It is a guard rail on parsed
// argv, not isolation (docs/terminal.md); with bubblewrap none of these exist inside.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { terminalErrors } from "../errors.ts";
import { isInside, type MusterData } from "./working-directory.ts";

const SYSTEM = ["/proc", "/sys", "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/root/.ssh"];
const IN_HOME = [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".config/gcloud", ".config/gh", ".password-store"];

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The candidate paths one argument may name: itself, an option's value (`--file=x`, `-f/x`). */
function candidates(arg: string): string[] {
  const found = [arg];
  const eq = arg.indexOf("=");
  if (eq >= 0) found.push(arg.slice(eq + 1));
  const slash = arg.indexOf("/");
  if (arg.startsWith("-") && slash > 0) found.push(arg.slice(slash));
  return found.filter((candidate) => candidate.length > 0);
}

/** Throws 403 `TERMINAL_PATH_FORBIDDEN` when an argument names a protected place (after `..` and symlinks). */
export function assertNoSensitivePaths(argv: string[], cwd: string, data: MusterData): void {
  const home = real(homedir());
  const protectedRoots = [...SYSTEM, ...IN_HOME.map((entry) => join(home, entry))].map(real);
  for (const arg of argv.slice(1)) {
    for (const candidate of candidates(arg)) {
      const path = real(resolve(cwd, candidate));
      const inData = isInside(data.home, path) && !isInside(data.workspace, path);
      if (inData || protectedRoots.some((root) => isInside(root, path))) throw terminalErrors.TERMINAL_PATH_FORBIDDEN({ arg: candidate });
    }
  }
}
