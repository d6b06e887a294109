// Runs one program (never through a shell) with a deadline and an output cap, and kills its
// whole process group when either is reached or the caller aborts.
import { spawn } from "node:child_process";
import { constants } from "node:os";

export interface ProcessLimits {
  timeoutMs: number;
  /** Bytes of combined stdout and stderr kept; more kills the process. */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface ProcessResult {
  output: Buffer;
  exitCode: number;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/** How long a program's leftover children may hold its output pipes open after it exited. */
const DRAIN_GRACE_MS = 250;

/** Kills the process group led by `pid` (detached spawn), ignoring a group already gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Spawns `argv` with `shell: false` in its own process group and collects its output. Resolves
 * (never rejects) once the process ended and its pipes closed; a program that cannot start
 * reports exit code 127 and the reason, as a shell would.
 */
export function runProcess(
  argv: string[],
  options: { cwd: string; env: Record<string, string>; /** The file to execute when it differs from argv[0] (argv[0] is still passed as the name). */ executable?: string },
  limits: ProcessLimits,
): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    let exitCode: number | null = null;
    let settled = false;
    const child = spawn(options.executable ?? argv[0]!, argv.slice(1), { argv0: argv[0], cwd: options.cwd, env: options.env, shell: false, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const stop = () => killGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, limits.timeoutMs);
    const onAbort = () => stop();
    limits.signal?.addEventListener("abort", onAbort, { once: true });
    let drainTimer: NodeJS.Timeout | undefined;

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      limits.signal?.removeEventListener("abort", onAbort);
      // Whatever is left of the group (background children) ends with the command.
      stop();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolvePromise({ output: Buffer.concat(chunks), exitCode: exitCode ?? 127, timedOut, truncated, durationMs: Math.round(performance.now() - started) });
    };
    const collect = (chunk: Buffer) => {
      if (truncated) return;
      const room = limits.maxOutputBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = limits.maxOutputBytes;
        truncated = true;
        stop();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    child.on("error", (error: NodeJS.ErrnoException) => {
      chunks.push(Buffer.from(`${argv[0]}: ${error.code === "ENOENT" ? "command not found" : "cannot be started"}\n`));
      exitCode = error.code === "EACCES" ? 126 : 127;
      finish();
    });
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      drainTimer = setTimeout(finish, DRAIN_GRACE_MS);
    });
    child.on("close", finish);
  });
}
