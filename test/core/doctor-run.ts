// `muster doctor` run as a child process (as a user runs it) against the fake gateway, for the
// doctor suites: the text and --json reports, and a fresh MUSTER_HOME per gateway.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { removeHome } from "../helpers/start-test-host.ts";

export const main = join(new URL("../..", import.meta.url).pathname, "core/main.ts");
export const TOKEN = "doctor-token-0123456789";
export const ORDER = [
  "config",
  "home",
  "database",
  "workspace",
  "gateway.tcp",
  "gateway.websocket",
  "gateway.challenge",
  "gateway.token",
  "gateway.scopes",
  "gateway.protocol",
  "gateway.agents",
  "crew",
  "vault",
];
export const GATEWAY = ORDER.filter((id) => id.startsWith("gateway."));
export const statuses = (json: { status: Record<string, string> }, ids: string[]) => ids.map((id) => json.status[id]);

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function doctor(env: Record<string, string>, args: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, "doctor", ...args], {
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function report(env: Record<string, string>) {
  const run = await doctor(env, ["--json"]);
  let parsed: { ok: boolean; checks: { id: string; name: string; status: string; detail: string; fix?: string }[] };
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    throw new Error(`doctor --json printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`);
  }
  return { ...run, ...parsed, status: Object.fromEntries(parsed.checks.map((c) => [c.id, c.status])) as Record<string, string> };
}

/** A fresh MUSTER_HOME with a fake gateway's address and token. */
export function envFor(gw: FakeGateway | null, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { MUSTER_HOME: home, WORKSPACE_DIR: join(home, "workspace"), ...(gw ? { GATEWAY_URL: gw.url, GATEWAY_TOKEN: TOKEN } : {}), ...extra };
}

export async function withGateway(options: Parameters<typeof FakeGateway.start>[0], fn: (gw: FakeGateway, home: string) => Promise<void>) {
  const gw = await FakeGateway.start({ token: TOKEN, ...options });
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-"));
  try {
    await fn(gw, home);
  } finally {
    await gw.stop();
    removeHome(home);
  }
}
