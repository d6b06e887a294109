// A host with the agents plugin wired to a fake gateway and a workspace holding an
// organisation file and persona templates, for the agents suites.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FakeGateway, type FakeGatewayOptions } from "../../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { untilEveryInstance, waitUntil } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

export const TOKEN = "fake-token-agents-0123456789";
const FAST = { backoffInitialMs: 30, backoffMaxMs: 200, challengeTimeoutMs: 500, connectTimeoutMs: 1_000, stableAfterMs: 100, unauthorizedRetryMs: 60_000 };

export const ORG = `org:
  name: Test Crew
  owner: Daniel
  tiers: {'1': executive, '2': management, '3': execution}
  squads:
    dev: {name: Dev, chief: odin, lead: thor, domain: code, members: [thor, loki, freya]}
  agents:
    odin: {id: odin, tier: 1, role: chief, model: m-large, squad: dev, skills: [strategy, review]}
    thor: {id: thor, tier: 2, role: lead, model: m-mid, squad: dev, reports_to: odin, skills: [review, typescript, testing]}
    loki: {id: loki, tier: 3, role: developer, model: m-small, squad: dev, reports_to: thor, skills: [typescript, testing]}
    freya: {id: freya, tier: 3, role: developer, model: m-small, squad: dev, reports_to: thor, skills: [typescript]}
`;

export interface AgentsRig {
  gw: FakeGateway;
  h: TestHost;
  close(): Promise<void>;
}

/** Writes `files` (workspace-relative path → content) into a fresh workspace. */
export function makeWorkspace(files: Record<string, string>): { home: string; workspace: string } {
  const home = mkdtempSync(join(tmpdir(), "muster-agents-"));
  const workspace = join(home, "workspace");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  mkdirSync(workspace, { recursive: true });
  return { home, workspace };
}

export async function startAgentsRig(
  options: { files?: Record<string, string>; gateway?: FakeGatewayOptions; agentsConfig?: Record<string, unknown>; config?: Record<string, unknown> } = {},
): Promise<AgentsRig> {
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000, ...options.gateway });
  const { home, workspace } = makeWorkspace(options.files ?? { "company/org_structure.yaml": ORG });
  const h = await startTestHost({
    home,
    workspace,
    config: {
      owner: "Daniel",
      gatewayUrl: gw.url,
      gatewayToken: TOKEN,
      gatewayTimings: FAST,
      pluginConfig: { agents: { sessionsCoalesceMs: 0, ...options.agentsConfig } },
      ...options.config,
    },
  });
  await waitUntil(async () => (await h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === "connected", { timeoutMs: 20_000, label: "gateway connected" });
  const rig: AgentsRig = {
    gw,
    h,
    async close() {
      // A test may have restarted the host (rig.h is then the new one).
      await rig.h.stop();
      await gw.stop();
      removeHome(rig.h.home);
    },
  };
  return rig;
}

/**
 * Makes the host re-read the fake's sessions (a `sessions.changed` without a row) and waits until
 * `check` holds on two health reads in a row: in a team (MUSTER_TEST_TEAM=1) each instance
 * re-reads on the event and keeps its own view, and two reads in a row are one on each.
 */
export async function refreshSessions<T>(rig: AgentsRig, check: (health: ApiBody<"getAgentsHealth">) => T): Promise<NonNullable<T>> {
  rig.gw.broadcast("sessions.changed", { sessionKey: "agent:main:main", reason: "test" }, (c) => c.subscribedSessions);
  return healthSettled(rig, check, "health after sessions refresh");
}

/** Waits until `check` holds on every instance's health view (untilEveryInstance). */
export function healthSettled<T>(rig: AgentsRig, check: (health: ApiBody<"getAgentsHealth">) => T, label: string): Promise<NonNullable<T>> {
  return untilEveryInstance(async () => check((await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body), { timeoutMs: 10_000, label });
}

export const minutesAgo = (m: number) => Date.now() - m * 60_000;
