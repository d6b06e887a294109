// The OpenClaw configuration of the test peer (reference openclaw-gateway.md §4): headless on
// loopback with a token, two agents (`main`, `helper`) with explicit ownership, the fake
// model as the only provider, and every outbound channel of its own switched off (§3.2).
import { join } from "node:path";

export const PEER_AGENTS = ["main", "helper"] as const;

export interface PeerLayout {
  /** Everything the peer writes lives under here; removed at the end. */
  root: string;
  stateDir: string;
  configPath: string;
  homeDir: string;
  tmpDir: string;
  logFile: string;
  /** The gateway's stdout and stderr. */
  outputFile: string;
}

export function peerLayout(root: string): PeerLayout {
  const stateDir = join(root, "state");
  return {
    root,
    stateDir,
    configPath: join(stateDir, "openclaw.json"),
    homeDir: join(root, "home"),
    tmpDir: join(root, "tmp"),
    logFile: join(stateDir, "logs", "openclaw.log"),
    outputFile: join(root, "gateway-output.log"),
  };
}

export function gatewayConfig(layout: PeerLayout, port: number, modelBaseUrl: string, extraAgents: readonly string[] = []): Record<string, unknown> {
  const extra = Object.fromEntries(extraAgents.filter((id) => !(PEER_AGENTS as readonly string[]).includes(id)).map((id) => [id, { name: id }]));
  return {
    gateway: { mode: "local", port, bind: "loopback", auth: { mode: "token" } },
    discovery: { mdns: { mode: "off" } },
    update: { checkOnStart: false },
    // Without it the gateway logs to a shared /tmp/openclaw/ (§3.6).
    logging: { file: layout.logFile },
    models: {
      catalogRefresh: { enabled: false },
      mode: "merge",
      providers: {
        fake: {
          baseUrl: modelBaseUrl,
          apiKey: "fake-local",
          api: "openai-completions",
          models: [
            {
              id: "fake-model",
              name: "Fake Model",
              reasoning: false,
              input: ["text"],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    agents: {
      // Two agents need explicit ownership, or the gateway rejects the config (§3.6).
      ownership: "explicit",
      defaults: { model: { primary: "fake/fake-model" }, workspace: join(layout.stateDir, "workspace") },
      entries: {
        main: { name: "Main" },
        // helper's shell commands need a human's approval (mode "ask", empty allowlist: every
        // command asks), which test/openclaw/60-approvals drives through Muster's one inbox.
        helper: { name: "Helper", workspace: join(layout.stateDir, "workspace-helper"), tools: { exec: { host: "gateway", mode: "ask" } } },
        ...extra,
      },
    },
  };
}

/** The gateway's environment, built from nothing so no API key or proxy of the caller leaks in. */
export function gatewayEnv(layout: PeerLayout, token: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    TZ: "UTC",
    HOME: layout.homeDir,
    OPENCLAW_HOME: layout.homeDir,
    OPENCLAW_STATE_DIR: layout.stateDir,
    OPENCLAW_CONFIG_PATH: layout.configPath,
    TMPDIR: layout.tmpDir,
    OPENCLAW_GATEWAY_TOKEN: token,
    OPENCLAW_DISABLE_BONJOUR: "1",
    OPENCLAW_NO_AUTO_UPDATE: "1",
    OPENCLAW_SKIP_CHANNELS: "1",
    OPENCLAW_NO_RESPAWN: "1",
    OPENCLAW_EXEC_SHELL_SNAPSHOT: "0",
  };
}
