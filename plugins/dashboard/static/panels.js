// The side panels: agent health and usage (routes that other plugins add; until one exists
// the panel says so and keeps checking), and the vault's secret names.
import { api, ApiError } from "./api.js";
import { h, errorText, time } from "./dom.js";

function missing(caught) {
  return caught instanceof ApiError && (caught.code === "NOT_FOUND" || caught.status === 404);
}

function unavailable(what) {
  return h("p", { class: "unavailable" }, h("strong", {}, "Not available"), ` This server has no ${what} yet; this panel lights up once a plugin provides it.`);
}

function failed(caught) {
  return h("p", { class: "error", role: "alert" }, errorText(caught));
}

export function createHealthPanel() {
  const body = document.getElementById("health-body");
  async function refresh() {
    try {
      const health = await api.get("/api/agents/health");
      const agents = health.agents ?? [];
      const gateway = typeof health.gateway === "string" ? health.gateway : health.gateway?.state;
      body.replaceChildren(
        gateway ? h("p", { class: "meta" }, "Gateway: ", h("span", { class: `badge state-${gateway}` }, gateway)) : null,
        agents.length === 0
          ? h("p", { class: "empty" }, "No agents known yet.")
          : h(
              "ul",
              { class: "agents" },
              agents.map((agent) =>
                h(
                  "li",
                  { "data-state": agent.state },
                  h("span", { class: `dot state-${agent.state}`, "aria-hidden": "true" }),
                  h("span", { class: "agent-id" }, agent.id),
                  h("span", { class: "badge" }, agent.state),
                  // An agent the gateway does not know looks idle but cannot run: say so.
                  agent.registered === false ? h("span", { class: "badge state-unregistered", title: "POST /api/agents/register-missing, then approve" }, "not registered with the gateway") : null,
                  h("span", { class: "meta" }, agent.lastActivityMs ? time(agent.lastActivityMs) : "no activity", agent.model ? ` · ${agent.model}` : ""),
                ),
              ),
            ),
      );
    } catch (caught) {
      body.replaceChildren(missing(caught) ? unavailable("agent health route (GET /api/agents/health)") : failed(caught));
    }
  }
  return { refresh };
}

const number = new Intl.NumberFormat();
const dollars = (cents) => `$${(Number(cents ?? 0) / 100).toFixed(2)}`;

export function createUsagePanel() {
  const body = document.getElementById("usage-body");
  async function refresh() {
    try {
      const { today } = await api.get("/api/usage");
      const byAgent = Object.entries(today?.byAgent ?? {});
      body.replaceChildren(
        h(
          "dl",
          { class: "figures" },
          h("div", {}, h("dt", {}, "Input tokens"), h("dd", {}, number.format(today?.totalInputTokens ?? 0))),
          h("div", {}, h("dt", {}, "Output tokens"), h("dd", {}, number.format(today?.totalOutputTokens ?? 0))),
          h("div", {}, h("dt", {}, "Estimated cost"), h("dd", {}, dollars(today?.estimatedCostCents))),
        ),
        byAgent.length
          ? h("ul", { class: "by-agent" }, byAgent.map(([agent, figures]) => h("li", {}, h("span", { class: "agent-id" }, agent), h("span", { class: "meta" }, `${number.format(figures.input + figures.output)} tokens · ${dollars(figures.cost)}`))))
          : h("p", { class: "meta" }, "No usage recorded today."),
      );
    } catch (caught) {
      body.replaceChildren(missing(caught) ? unavailable("usage route (GET /api/usage)") : failed(caught));
    }
  }
  return { refresh };
}

export function createVaultPanel() {
  const body = document.getElementById("vault-body");
  async function refresh() {
    try {
      const { secrets } = await api.get("/api/vault");
      body.replaceChildren(
        secrets.length === 0
          ? h("p", { class: "empty" }, "No secrets stored.")
          : h("ul", { class: "secrets" }, secrets.map((secret) => h("li", {}, h("code", {}, secret.name), h("span", { class: "badge" }, secret.category), h("span", { class: "meta" }, ` by ${secret.createdBy}`)))),
      );
    } catch (caught) {
      body.replaceChildren(missing(caught) ? unavailable("vault") : failed(caught));
    }
  }
  return { refresh };
}
