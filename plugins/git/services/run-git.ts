// Every git invocation: argv only (no shell), a clean environment that never prompts, and
// repository settings that would run commands of the repository's choice switched off.
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
 * `-c` settings for every call: no hooks (a checked-out repository could otherwise run its own
 * code on commit, merge and push), no fsmonitor command, no `ext::` transport.
 */
const SAFE_SETTINGS = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "protocol.ext.allow=never", "-c", "core.pager=cat"];

const OUTPUT_MAX = 4 * 1024 * 1024;

/** Runs `git <SAFE_SETTINGS> <args>` in `repo`; resolves with its exit code and output (never rejects on a non-zero exit). */
export function runGit(repo: string, args: string[], options: { timeoutMs: number; input?: string }): Promise<GitOutput> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  Object.assign(env, {
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
    // Discovery stops at the configured directory: a folder inside some other repository is not that repository.
    GIT_CEILING_DIRECTORIES: dirname(repo),
    GIT_LITERAL_PATHSPECS: "1",
    GIT_OPTIONAL_LOCKS: "0",
  });
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE_SETTINGS, ...args], { cwd: repo, env, shell: false, stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], timeout: options.timeoutMs, killSignal: "SIGKILL" });
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
