// Starts (and stops) a host with exactly these plugins and says how the start ended: the
// start error's code and message, or code "started". The temporary home is always removed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MusterError, PluginDefinition } from "@muster/plugin";
import { createHost } from "../../core/host.ts";
import { removeHome } from "./start-test-host.ts";

export async function startOutcome(plugins: PluginDefinition[]): Promise<{ code: string; message: string }> {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const host = createHost({ plugins, config: { home, port: 0, host: "127.0.0.1", gatewayUrl: "off", logLevel: "silent" } });
  try {
    await host.start();
    return { code: "started", message: "" };
  } catch (error) {
    return { code: (error as MusterError).code ?? String(error), message: (error as Error).message };
  } finally {
    await host.stop();
    removeHome(home);
  }
}

/** The start's error code, or "started" (for assertions that only need the code). */
export async function startErrorCode(options: { plugins: PluginDefinition[] }): Promise<string> {
  return (await startOutcome(options.plugins)).code;
}
