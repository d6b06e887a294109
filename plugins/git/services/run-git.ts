// Every git invocation: argv only (no shell), a clean environment that never prompts, git's
// configuration isolated to the repository's own files (which config-safety.ts vets before
// every operation), and repository settings that would run commands switched off.
import { spawn } from "node:child_process";
import { dirname } from "node:path";

export interface GitOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** What of Muster's environment git may see: enough to find programs, keys and a locale; no credentials. */
const PASSED_THROUGH = ["PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "SSH_AUTH_SOCK"];

/**
 * `-c` settings for every call (the command line wins over every config file): no hooks (a
 * checked-out repository could otherwise run its own code on commit, merge and push), no
 * fsmonitor command, no `ext::` transport, no pager, no signing or signature checks (they run
 * gpg/ssh-keygen), no submodule recursion (it would clone and check out what .gitmodules names).
 */
const SAFE_SETTINGS = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "protocol.ext.allow=never",
  "core.pager=cat",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "log.showSignature=false",
  "merge.verifySignatures=false",
  "submodule.recurse=false",
  // An empty helper empties the list: no credential helper of any config file runs.
  "credential.helper=",
  // No background `git maintenance`/`gc` left running after Muster's call returns.
  "maintenance.auto=false",
  "gc.auto=0",
].flatMap((setting) => ["-c", setting]);

const OUTPUT_MAX = 4 * 1024 * 1024;

export interface RunGitOptions {
  timeoutMs: number;
  input?: string;
  /** Extra `-c name=value` settings for this call only (such as a commit identity). */
  settings?: string[];
}

/** The environment of every git call: no system or global config file, so the repository's own config is all git reads. */
function gitEnvironment(repo: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  Object.assign(env, {
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    // These win over core.sshCommand, core.askPass, core.editor, sequence.editor, core.pager and
    // core.gitProxy, so a setting planted after config-safety.ts looked still runs nothing.
    GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
    GIT_ASKPASS: "",
    GIT_EDITOR: ":",
    GIT_SEQUENCE_EDITOR: ":",
    GIT_PAGER: "cat",
    GIT_PROXY_COMMAND: "",
    // The system and global files are out of the repository's reach but may name credential
    // helpers and the like (and a workspace that is $HOME makes ~/.gitconfig agent-writable).
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    // Discovery stops at the configured directory: a folder inside some other repository is not that repository.
    GIT_CEILING_DIRECTORIES: dirname(repo),
    GIT_LITERAL_PATHSPECS: "1",
    GIT_OPTIONAL_LOCKS: "0",
  });
  return env;
}

/** Runs `git <SAFE_SETTINGS> <args>` in `repo`; resolves with its exit code and output (never rejects on a non-zero exit). */
export function runGit(repo: string, args: string[], options: RunGitOptions): Promise<GitOutput> {
  const settings = [...SAFE_SETTINGS, ...(options.settings ?? []).flatMap((setting) => ["-c", setting])];
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...settings, ...args], { cwd: repo, env: gitEnvironment(repo), shell: false, stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], timeout: options.timeoutMs, killSignal: "SIGKILL" });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      if ((size += chunk.length) <= OUTPUT_MAX) into.push(chunk);
    };
    child.stdout!.on("data", keep(out));
    child.stderr!.on("data", keep(err));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const stderr = Buffer.concat(err).toString("utf8") + (signal ? `\n(git was stopped by ${signal} after ${options.timeoutMs} ms)` : "");
      resolve({ code: code ?? 128, stdout: Buffer.concat(out).toString("utf8"), stderr });
    });
    if (child.stdin) {
      // git may exit before reading its input (a refused commit); that is its answer, not an error here.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}
