import { configToken, defineRoutes, hostTokens, keptAnswer, type GatewayStatus, type GateRequestResult } from "@muster/plugin";
import type { AgentsConfig } from "../config.ts";
import { mountMarketplaceRoutes } from "./marketplace-routes.ts";
import { APPROVALS } from "../../approvals/tokens.ts";
import { agentsErrors } from "../errors.ts";
import type { AgentHealthEntry } from "../tokens.ts";
import { coverageFor } from "../services/coverage.ts";
import { CONFIGURE_ACTION, type ConfigurePayload } from "../services/gated-actions.ts";
import { DIRECTORY, FACTORY, HEARTBEAT, PACKS, REGISTRATION } from "../services/service-tokens.ts";
import {
  agentParams,
  agentResponse,
  configureBody,
  configureResponse,
  coverageQuery,
  coverageResponse,
  emptyQuery,
  factoryBody,
  factoryResponse,
  healthResponse,
  heartbeatBody,
  heartbeatResponse,
  installPackBody,
  installPackResponse,
  licenceChallengeBody,
  licenceChallengeResponse,
  listAgentsResponse,
  packsResponse,
  registerMissingResponse,
  templatesResponse,
} from "./schemas.ts";

export const agentRoutes = defineRoutes({
  deps: { directory: DIRECTORY, factory: FACTORY, registration: REGISTRATION, packs: PACKS, heartbeat: HEARTBEAT, gate: hostTokens.gate, approvals: APPROVALS, config: configToken<AgentsConfig>() },
  mount(router, { directory, factory, registration, packs, heartbeat, gate, approvals, config }) {
    /** A result whose approval the gate just requested, answered with the whole Approval record as every route that creates one. */
    const withApproval = async <R extends { approval: GateRequestResult }>(result: R) => ({ ok: true as const, ...result, approval: await approvals.get(result.approval.approvalId) });

    let keptHealth: { agents: AgentHealthEntry[]; link: string; answer: { ok: true; gateway: GatewayStatus; agents: AgentHealthEntry[] } } | undefined;
    // The fixed paths come before /api/agents/:id so that `health` is never read as an id.
    router.get(
      "/api/agents/health",
      {
        summary: "Every known agent's health from the cached gateway sessions (spec state table); all offline while the gateway is not connected",
        description: "Order: active, stalled, stuck, idle, offline. lastActivityMs is the newest of the agent's sessions (null with idleMinutes null when it has none). Never asks the gateway per request.",
        query: emptyQuery,
        response: healthResponse,
      },
      async () => {
        const gateway = directory.gatewayStatus();
        const agents = await directory.healthAll();
        // The same answer for every poll while neither the cached entries nor the link changed: serialised once.
        const link = JSON.stringify(gateway);
        if (keptHealth?.agents !== agents || keptHealth.link !== link) keptHealth = { agents, link, answer: keptAnswer({ ok: true as const, gateway, agents }) };
        return keptHealth.answer;
      },
    );

    router.get(
      "/api/agents/coverage",
      { summary: "Agents that share skills with an agent, by shared skills then same tier (400 without agent, 404 AGENT_NOT_FOUND)", query: coverageQuery, response: coverageResponse },
      async ({ query }) => ({ ok: true, ...coverageFor(query.agent, await directory.list()) }),
    );

    router.get(
      "/api/agents/factory",
      { summary: "Persona templates under personas/<executive|management|execution>/*.md", query: emptyQuery, response: templatesResponse },
      async () => ({ ok: true, templates: await factory.templates() }),
    );

    router.post(
      "/api/agents/factory",
      {
        summary: "Create an agent from a persona template: workspace files and organisation entry (all or nothing), plus a pending agents.register approval",
        description: "409 AGENT_ALREADY_EXISTS before anything is written; 404 AGENT_TEMPLATE_NOT_FOUND; 404 AGENT_NOT_FOUND for an unknown reportsTo. The gateway learns of the agent only when the approval is approved.",
        body: factoryBody,
        status: 201,
        response: factoryResponse,
      },
      async ({ body }) => withApproval(await factory.create(body)),
    );

    router.post(
      "/api/agents/register-missing",
      {
        summary: "Register every agent of the organisation file that the gateway's agents.list does not name: ONE pending agents.register approval",
        description:
          "202 with the agents it will register and the pending approval; approving runs agents.create for each (agents registered meanwhile are skipped; each agent's outcome is in the approval's executionResult, or its executionError when one failed). 409 AGENTS_ALL_REGISTERED when none is missing; 503 GATEWAY_UNAVAILABLE while the gateway is not connected.",
        status: 202,
        response: registerMissingResponse,
      },
      async () => withApproval(await registration.requestMissing()),
    );

    router.get("/api/agents", { summary: "Agent records mirrored from the organisation file, with runtime fields", query: emptyQuery, response: listAgentsResponse }, async () => ({
      ok: true,
      agents: await directory.listWithGateways(),
    }));

    router.get("/api/agents/:id", { summary: "One agent record (404 AGENT_NOT_FOUND)", params: agentParams, response: agentResponse }, async ({ params }) => {
      const agent = await directory.get(params.id);
      if (!agent) throw agentsErrors.AGENT_NOT_FOUND({ agentId: params.id });
      return { ok: true, agent: directory.withGateway(agent) };
    });

    router.patch(
      "/api/agents/:id",
      {
        summary: "Request a change of the agent's tool allow/deny lists and sandbox: a pending agents.configure approval; the record changes only after it is approved",
        params: agentParams,
        body: configureBody,
        status: 202,
        response: configureResponse,
      },
      async ({ params, body }) => {
        const agent = await directory.get(params.id);
        if (!agent) throw agentsErrors.AGENT_NOT_FOUND({ agentId: params.id });
        const requested: ConfigurePayload = { agentId: agent.id, tools: body.tools ?? agent.tools, sandbox: body.sandbox ?? agent.sandbox };
        if (JSON.stringify({ t: requested.tools, s: requested.sandbox }) === JSON.stringify({ t: agent.tools, s: agent.sandbox })) throw agentsErrors.AGENT_CONFIG_UNCHANGED({ agentId: agent.id });
        const approval = await gate.request(CONFIGURE_ACTION, requested, {
          requestedBy: "muster-agents",
          title: `Change ${agent.id}'s tools and sandbox in OpenClaw`,
          context: `allow: ${requested.tools.allow.join(", ") || "(no allow list)"}; deny: ${requested.tools.deny.join(", ") || "(none)"}; sandbox: ${requested.sandbox}`,
        });
        return withApproval({ agent, requested: { tools: requested.tools, sandbox: requested.sandbox }, approval });
      },
    );

    router.get("/api/packs", { summary: "Squad packs under packs/*.json; files that are not valid packs are listed under errors", query: emptyQuery, response: packsResponse }, async () => ({
      ok: true,
      ...(await packs.list()),
    }));

    router.post(
      "/api/packs/licence-challenge",
      {
        summary: "A single-use challenge (EIP-712 typed data) that the holder of a pack's marketplace licence signs to install it",
        description:
          "The typed data binds this Muster (domain salt), the licence token (verifyingContract), the pack, its templateId, the holder, a nonce stored by the server and an expiry (agents.marketplace.challengeTtlSeconds). 404 PACK_NOT_FOUND, 400 PACK_NOT_LICENSED, 503 LICENSE_CHECK_UNAVAILABLE without a configured chain.",
        body: licenceChallengeBody,
        status: 201,
        response: licenceChallengeResponse,
      },
      async ({ body }) => ({ ok: true, challenge: await packs.licenceChallenge(body.name, body.holder) }),
    );

    router.post(
      "/api/packs",
      {
        summary: "Install a pack: its agents, directories and organisation entries, all or nothing, plus a pending agents.register approval",
        description:
          "404 PACK_NOT_FOUND, 409 PACK_ALREADY_INSTALLED, 409 PACK_AGENT_EXISTS, 400 PACK_PATH_OUTSIDE_WORKSPACE, 400 PACK_TEMPLATE_NOT_FOUND. A pack with a marketplace templateId needs buyer and proof (a signed licence challenge, single use) and the buyer holding a valid licence: 403 LICENSE_PROOF_REQUIRED (no proof, e.g. a bare buyer), LICENSE_PROOF_INVALID, LICENSE_PROOF_EXPIRED, LICENSE_PROOF_REPLAYED, LICENSE_REQUIRED; 503 LICENSE_CHECK_UNAVAILABLE.",
        body: installPackBody,
        status: 201,
        response: installPackResponse,
      },
      async ({ body }) => withApproval(await packs.install(body.name, body.buyer, body.proof)),
    );

    router.post(
      "/api/heartbeat",
      { summary: "An agent's health now; with nudge: true a stalled or stuck agent is sent its HEARTBEAT.md prompt through the gateway", body: heartbeatBody, response: heartbeatResponse },
      async ({ body }) => ({ ok: true, ...(await heartbeat.check(body.agentId, body.nudge)) }),
    );

    mountMarketplaceRoutes(router, config);
  },
});
