// Runs the real `muster` command (core/main.ts, on Node's type stripping as `npm start`
// does) as a child process, asynchronously: the server under test lives in this process.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { scaled } from "../helpers/time-scale.ts";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const MAIN = join(ROOT, "core/main.ts");

export interface MusterRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `muster <args>` with `env` over this process's environment; killed after `timeoutMs`. */
export function runMuster(args: string[], env: Record<string, string> = {}, timeoutMs = scaled(60_000)): Promise<MusterRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`muster ${args.join(" ")} did not finish in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
