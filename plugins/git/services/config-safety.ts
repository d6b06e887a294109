// Git runs no program that a repository file names. With the system and global files switched
// off (run-git.ts), the repository's own config files are everything git reads; before every
// operation they are listed and the repository is refused while any of them names a program
// (or pulls in another file). docs/git.md lists the keys and why attributes need no check.
import { gitErrors } from "../errors.ts";
import { runGit } from "./run-git.ts";

export interface ConfigEntry {
  /** `local`, `worktree`, `command`, ... */
  scope: string;
  /** Where git read it (`file:.git/config`). */
  origin: string;
  /** As git prints it: section and name lower case, a subsection as written (`filter.X.clean`). */
  key: string;
  /** null for a bare `key` line (a boolean true). */
  value: string | null;
}

/** Parses `git config --list --show-scope --show-origin -z`. */
export function parseConfigList(text: string): ConfigEntry[] {
  const fields = text.split("\0");
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope, origin, pair] = [fields[i]!, fields[i + 1]!, fields[i + 2]!];
    const newline = pair.indexOf("\n");
    entries.push({ scope, origin, key: newline < 0 ? pair : pair.slice(0, newline), value: newline < 0 ? null : pair.slice(newline + 1) });
  }
  return entries;
}

const BUILTIN_STRATEGIES = new Set(["ort", "recursive", "resolve", "octopus", "ours", "subtree"]);
const startsWithBang = (value: string | null) => (value ?? "").trimStart().startsWith("!");

/**
 * Settings that make git (or a git command) run a program, or read configuration from another
 * file, matched against the lower-cased key. `when` narrows a rule to the values that do.
 */
const PROGRAM_SETTINGS: { key: RegExp; when?: (value: string | null) => boolean }[] = [
  // Another file's settings would escape this check.
  { key: /^include\./ },
  { key: /^includeif\./ },
  { key: /^core\.(sshcommand|askpass|editor|pager|gitproxy|hookspath|fsmonitor|alternaterefscommand)$/ },
  { key: /^filter\..+\.(clean|smudge|process)$/ },
  { key: /^diff\.external$/ },
  { key: /^diff\..+\.(command|textconv)$/ },
  { key: /^merge\..+\.driver$/ },
  { key: /^credential\.(.+\.)?helper$/ },
  { key: /^gpg\.(.+\.)?program$/ },
  { key: /^gpg\.ssh\.defaultkeycommand$/ },
  { key: /^sequence\.editor$/ },
  { key: /^pager\./ },
  // receivepack/uploadpack run on the remote side of a local or ssh transport; vcs picks a remote helper program.
  { key: /^remote\..+\.(receivepack|uploadpack|vcs)$/ },
  { key: /^uploadpack\.packobjectshook$/ },
  { key: /^alias\./, when: startsWithBang },
  { key: /^(difftool|mergetool)\..+\.(cmd|path)$/ },
  { key: /^interactive\.difffilter$/ },
  // Configuration-defined hooks (newer git) run whatever core.hooksPath says.
  { key: /^hook\./ },
  { key: /^trailer\..+\.(command|cmd)$/ },
  { key: /^submodule\..+\.update$/, when: startsWithBang },
  // A strategy that is not built in is a `git-merge-<name>` program looked up on PATH.
  { key: /^pull\.(twohead|octopus)$/, when: (value) => !(value ?? "").split(/\s+/).filter(Boolean).every((s) => BUILTIN_STRATEGIES.has(s)) },
  { key: /^sendemail\.(.+\.)?(tocmd|cccmd|headercmd|smtpserver)$/ },
  { key: /^imap\.tunnel$/ },
  { key: /^(browser|man)\..+\.(cmd|path)$/ },
  { key: /^guitool\..+\.cmd$/ },
  { key: /^instaweb\.(httpd|browser)$/ },
  { key: /^(web|help)\.browser$/ },
];

/** The first setting of the repository's own files that names a program or another file; undefined when none does. */
export function firstUnsafeSetting(entries: ConfigEntry[]): ConfigEntry | undefined {
  return entries.find(
    (entry) => entry.scope !== "command" && PROGRAM_SETTINGS.some((rule) => rule.key.test(entry.key.toLowerCase()) && (rule.when?.(entry.value) ?? true)),
  );
}

/**
 * The repository's configuration (its own files only: includes are listed, never followed);
 * 409 `GIT_UNSAFE_CONFIG` naming the key when it names a program. Returned for further checks (URL rewrites).
 */
export async function safeConfig(repo: string, timeoutMs: number): Promise<ConfigEntry[]> {
  const listed = await runGit(repo, ["config", "--list", "--show-scope", "--show-origin", "--no-includes", "-z"], { timeoutMs });
  if (listed.code !== 0) throw gitErrors.GIT_UNSAFE_CONFIG({ key: "(the configuration cannot be read)", origin: listed.stderr.trim().split("\n")[0] ?? "git config" });
  const entries = parseConfigList(listed.stdout);
  const unsafe = firstUnsafeSetting(entries);
  if (unsafe) throw gitErrors.GIT_UNSAFE_CONFIG({ key: unsafe.key, origin: unsafe.origin.replace(/^file:/, "") });
  return entries;
}
