import { defineGatedAction, hostTokens } from "@muster/plugin";
import type { AgentTools, SandboxMode } from "../tokens.ts";
import { DIRECTORY, STORE } from "./service-tokens.ts";

export const REGISTER_ACTION = "agents.register";
export const CONFIGURE_ACTION = "agents.configure";

export interface RegisterPayload {
  agents: { agentId: string; name: string; model: string; emoji: string | null; workspace: string }[];
}

/** One agent's outcome of an approved registration. */
export interface RegisterResult {
  agentId: string;
  status: "created" | "exists" | "failed";
  error?: string;
}

const describeResults = (results: RegisterResult[]) =>
  (["created", "exists", "failed"] as const)
    .map((status) => [status, results.filter((r) => r.status === status).map((r) => r.agentId)] as const)
    .filter(([, ids]) => ids.length)
    .map(([status, ids]) => `${status}: ${ids.join(", ")}`)
    .join("; ");

export interface ConfigurePayload {
  agentId: string;
  tools: AgentTools;
  sandbox: SandboxMode;
}

/** OpenClaw's per-agent sandbox modes: Muster's `container` sandboxes every session. */
const OPENCLAW_SANDBOX: Record<SandboxMode, string> = { off: "off", container: "all" };

/**
 * The two changes to OpenClaw's configuration Muster makes, both only after a human approves
 * (DESIGN §9: never rewrite OpenClaw's configuration without an approval).
 */
export const registerAction = defineGatedAction({
  kind: REGISTER_ACTION,
  deps: { gateway: hostTokens.gateway, directory: DIRECTORY },
  create: ({ gateway, directory }) => ({
    describe: (p: RegisterPayload) => `Add ${p.agents.map((a) => a.agentId).join(", ")} to the OpenClaw gateway's agents (agents.create)`,
    async execute(p: RegisterPayload) {
      const results: RegisterResult[] = [];
      const created: unknown[] = [];
      for (const a of p.agents) {
        // Idempotent: an agent the gateway knows by now (an earlier approval, or added by hand) is left alone.
        if (await directory.knownToGateway(a.agentId)) {
          results.push({ agentId: a.agentId, status: "exists" });
          continue;
        }
        // The gateway derives the agent id from `name`; the factory's ids are already canonical.
        const params: Record<string, unknown> = { name: a.agentId, workspace: a.workspace };
        if (a.model) params.model = a.model;
        if (a.emoji) params.emoji = a.emoji;
        try {
          created.push(await gateway.request("agents.create", params, { timeoutMs: 30_000 }));
          results.push({ agentId: a.agentId, status: "created" });
        } catch (error) {
          // One refusal must not hide the others: every agent is tried, each one's outcome recorded.
          results.push({ agentId: a.agentId, status: "failed", error: (error as Error).message });
        }
      }
      // Read again here, and on every other instance of a team (health's `registered`, chat's check).
      if (results.some((r) => r.status === "created")) await directory.gatewayAgentsChanged();
      const failed = results.filter((r) => r.status === "failed");
      if (failed.length) throw new Error(`agents.create failed for ${failed.map((r) => `${r.agentId} (${r.error})`).join("; ")}; ${describeResults(results)}`);
      return { created, results };
    },
  }),
});

export const configureAction = defineGatedAction({
  kind: CONFIGURE_ACTION,
  deps: { gateway: hostTokens.gateway, store: STORE, directory: DIRECTORY },
  create: ({ gateway, store, directory }) => ({
    describe: (p: ConfigurePayload) =>
      `Set ${p.agentId}'s tools (allow: ${p.tools.allow.join(", ") || "any"}; deny: ${p.tools.deny.join(", ") || "none"}) and sandbox ${p.sandbox} in OpenClaw's configuration (config.patch)`,
    async execute(p: ConfigurePayload) {
      const current = (await gateway.request("config.get", {}, { timeoutMs: 15_000 })) as { hash?: unknown } | null;
      const patch = { agents: { entries: { [p.agentId]: { tools: { allow: p.tools.allow, deny: p.tools.deny }, sandbox: { mode: OPENCLAW_SANDBOX[p.sandbox] } } } } };
      const params: Record<string, unknown> = {
        raw: JSON.stringify(patch),
        // The lists replace what was there rather than merging into it.
        replacePaths: [`agents.entries.${p.agentId}.tools.allow`, `agents.entries.${p.agentId}.tools.deny`],
        note: `Muster: tools and sandbox of ${p.agentId}, approved`,
      };
      if (typeof current?.hash === "string") params.baseHash = current.hash;
      const result = await gateway.request("config.patch", params, { timeoutMs: 30_000 });
      await store.setConfiguration(p.agentId, p.tools, p.sandbox, new Date().toISOString());
      directory.invalidate();
      return { patched: true, result };
    },
  }),
});
