// A Muster test host (test/helpers/start-test-host.ts) pointed at the suite's real gateway,
// and the `muster` CLI run as a child process against it.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withTestHost, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { peer } from "./peer.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

export function musterOptions(extra: StartOptions = {}): StartOptions {
  const { gateway } = peer();
  return { ...extra, config: { gatewayUrl: gateway.url, gatewayToken: gateway.token, ...extra.config } };
}

/** `/api/health`'s `gateway` block: `{ state, url, since, lastError? }`. */
export interface GatewayHealth {
  state: string;
  url: string | null;
  since: string;
  lastError?: string;
}

export async function gatewayHealth(h: TestHost): Promise<GatewayHealth> {
  const { status, body } = await h.json("/api/health");
  if (status !== 200 || !body?.gateway) throw new Error(`/api/health answered ${status} without a gateway block: ${JSON.stringify(body)}`);
  return body.gateway;
}

export function waitForGatewayState(h: TestHost, state: string, timeoutMs = 20_000, intervalMs = 20): Promise<GatewayHealth> {
  return waitUntil(
    async () => {
      const gateway = await gatewayHealth(h);
      return gateway.state === state ? gateway : undefined;
    },
    { timeoutMs, intervalMs, label: `/api/health gateway.state "${state}"` },
  );
}

/** A host pointed at the real gateway, connected before `fn` runs; stopped and removed after. */
export function withMuster<T>(fn: (h: TestHost) => Promise<T>, extra: StartOptions = {}): Promise<T> {
  return withTestHost(musterOptions(extra), async (h) => {
    await waitForGatewayState(h, "connected");
    return fn(h);
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node core/main.ts <args>` with a fresh MUSTER_HOME and the suite's gateway settings. */
export async function muster(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  const { gateway } = peer();
  const home = mkdtempSync(join(tmpdir(), "muster-cli-home-"));
  try {
    return await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, "core", "main.ts"), ...args], {
        cwd: ROOT,
        env: { ...process.env, MUSTER_HOME: home, WORKSPACE_DIR: join(home, "workspace"), GATEWAY_URL: gateway.url, GATEWAY_TOKEN: gateway.token, LOG_LEVEL: "silent", NO_COLOR: "1", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => void (stdout += d));
      child.stderr.on("data", (d: Buffer) => void (stderr += d));
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`muster ${args.join(" ")} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
      }, timeoutMs);
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
