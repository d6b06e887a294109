// A host with the terminal (and what it needs: activities, the vault) and a log capture.
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { terminalPlugin } from "../../../plugins/terminal/index.ts";
import { vaultPlugin } from "../../../plugins/vault/index.ts";
import { startTestHost, type RequestInitJson, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

export interface TerminalHost {
  h: TestHost;
  /** Everything the server logged, as text. */
  logs(): string;
}

export async function startTerminalHost(
  terminal: Record<string, unknown>,
  env: NodeJS.ProcessEnv = { VAULT_KEY: "terminal-test-passphrase" },
  /** Where MUSTER_HOME goes (default a fresh temp directory). */
  home?: string,
): Promise<TerminalHost> {
  const chunks: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void chunks.push(line) });
  const h = await startTestHost({ plugins: [activitiesPlugin, vaultPlugin, terminalPlugin], env, logger, home, config: { pluginConfig: { terminal } } });
  return { h, logs: () => chunks.join("") };
}

/** POST /api/terminal with the session token (unless `init.session` is false). */
export function terminal(h: TestHost, body: unknown, init: RequestInitJson = {}) {
  return h.json<ApiBody<"postTerminal">>("/api/terminal", { method: "POST", body, session: true, ...init });
}

/** A fresh real directory under the temp directory. */
export function scratch(prefix = "muster-term-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Processes whose command line contains `marker` (read from /proc), to prove nothing was left running. */
export function processesMatching(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").includes(marker)) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** GET /api/terminal: which mode is active and why. */
export function terminalStatus(h: TestHost) {
  return h.json<ApiBody<"getTerminal">>("/api/terminal");
}
