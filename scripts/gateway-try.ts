// `npm run gateway:try`: a real OpenClaw gateway to try Muster's chat, councils, crons and
// dispatch without an OpenClaw setup of your own. It installs the pinned OpenClaw into the
// cache the test harness uses (~/.cache/muster, once), starts it on 127.0.0.1 with the
// built-in fake model (no model provider, no key, nothing leaves the machine), registers the
// crew of your organisation file with it, prints the GATEWAY_URL/GATEWAY_TOKEN to start
// Muster with, and runs until Ctrl-C, which stops the gateway and removes its state.
//
// The token is kept in ~/.cache/muster/gateway-try-token and reused: Muster's vault falls
// back to GATEWAY_TOKEN as its passphrase, so a new token per run would lock the vault.
// Options: --port <n> (default 18789, Muster's default GATEWAY_URL, when free).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import { startFakeModel, type FakeModel } from "./openclaw-peer/fake-model.ts";
import { startGatewayPeer, type GatewayPeer } from "./openclaw-peer/gateway-peer.ts";
import { cacheDir, ensureOpenClaw, OPENCLAW_VERSION } from "./openclaw-peer/install.ts";
import { freePort } from "./lib/free-port.ts";

const DEFAULT_PORT = 18789;
const START_ATTEMPTS = 3;
const ROOT = new URL("..", import.meta.url).pathname;
const log = (line: string) => console.error(`[gateway:try] ${line}`);

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The organisation file Muster will read (its own workspace rule), else the template it scaffolds from. */
export function crewAgentIds(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = resolve(env.MUSTER_HOME ?? join(ROOT, ".muster"));
  const openclawWorkspace = join(env.HOME || homedir(), ".openclaw", "workspace");
  const workspace = env.WORKSPACE_DIR ?? (existsSync(openclawWorkspace) ? openclawWorkspace : join(home, "workspace"));
  const candidates = [join(workspace, "company/org_structure.yaml"), join(ROOT, "core/internal/workspace/template/company/org_structure.yaml")];
  const file = candidates.find((path) => existsSync(path))!;
  const agents = (parse(readFileSync(file, "utf8")) as { org?: { agents?: Record<string, unknown> } })?.org?.agents ?? {};
  return Object.keys(agents);
}

/** One token per machine, reused by every run (mode 0600). */
function stableToken(): string {
  const file = join(dirname(cacheDir()), "gateway-try-token");
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token) return token;
  }
  mkdirSync(dirname(file), { recursive: true });
  const token = randomBytes(24).toString("hex");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

const { entry } = await ensureOpenClaw(log);
const port = await freePort(Number(option("--port") ?? DEFAULT_PORT));
const agents = crewAgentIds();
let model: FakeModel | undefined;
let gateway: GatewayPeer | undefined;
let stopping: Promise<void> | undefined;
const stop = (reason: string) =>
  (stopping ??= (async () => {
    log(`${reason}: stopping the gateway`);
    await gateway?.dispose();
    await model?.stop();
    log("stopped; its state is removed");
  })());
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void stop(signal).finally(() => process.exit(0)));

log(`starting OpenClaw ${OPENCLAW_VERSION} on 127.0.0.1:${port} with the fake model (15 s to 2 min)`);
const started = performance.now();
model = await startFakeModel();
// On a loaded machine the gateway can give up on its own start-up (a 5 s internal lease
// timeout, "state lease heartbeat did not become ready"): try again before failing.
for (let attempt = 1; !gateway; attempt++) {
  try {
    gateway = await startGatewayPeer({ entry, modelBaseUrl: model.baseUrl, agents, port, token: stableToken() });
  } catch (error) {
    log(`the gateway did not start (attempt ${attempt} of ${START_ATTEMPTS}): ${(error as Error).message}`);
    if (attempt === START_ATTEMPTS || stopping) {
      await stop("failed");
      process.exit(1);
    }
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const musterEnv = `GATEWAY_URL=${gateway.url} GATEWAY_TOKEN=${gateway.token}`;
console.log(`OpenClaw ${OPENCLAW_VERSION} is ready on ${gateway.url} (${seconds} s), loopback only, answering with the built-in fake model.
Agents: main, helper and your crew: ${agents.join(", ")}.

Start Muster against it in another terminal:

  ${musterEnv} npm start

then, for example:

  curl -s http://127.0.0.1:3333/api/chat -H 'content-type: application/json' -d '{"message":"Hello","agentId":"aide"}'

GATEWAY_URL=${gateway.url}
GATEWAY_TOKEN=${gateway.token}

Ctrl-C stops the gateway and removes its state.`);
