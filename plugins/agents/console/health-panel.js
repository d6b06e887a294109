// The agents plugin's console panel (CONSOLE_PANELS): the gateway's state and each agent's
// health from GET /api/agents/health. Agents that need the human come first and stand out:
// stuck, stalled, offline, and those the gateway does not know (the API says `idle` for them,
// but they cannot run, so they are never shown as healthy idle ones). `kit` is its helpers.
const ATTENTION = { stuck: 0, unregistered: 1, stalled: 2, offline: 3, idle: 4, active: 5 };
const TONE = { stuck: "bad", unregistered: "bad", stalled: "warn", offline: "warn", idle: "muted", active: "ok" };
const LABEL = { unregistered: "not registered with the gateway" };

/** The state shown: an agent the gateway's agents.list does not name is `unregistered`, whatever its sessions say. */
const shownState = (agent) => (agent.registered === false ? "unregistered" : agent.state);

export default function mountHealthPanel(element, { api, h, time, useStylesheet }) {
  // Beside this module, wherever it is served from.
  useStylesheet?.(new URL("./health-panel.css", import.meta.url).pathname);
  element.classList.add("agent-health");
  return async function refresh() {
    const health = await api.get("/api/agents/health");
    const gateway = typeof health.gateway === "string" ? health.gateway : health.gateway?.state;
    const agents = (health.agents ?? []).map((agent) => ({ ...agent, shown: shownState(agent) }));
    agents.sort((a, b) => (ATTENTION[a.shown] ?? 9) - (ATTENTION[b.shown] ?? 9) || String(a.id).localeCompare(String(b.id)));
    const needy = agents.filter((agent) => (ATTENTION[agent.shown] ?? 9) < ATTENTION.idle).length;
    element.replaceChildren(
      gateway
        ? h("p", { class: "meta" }, "Gateway: ", h("span", { class: `badge ${gateway === "connected" ? "ok" : "warn"} state-${gateway}` }, gateway),
            gateway === "connected" ? null : " · agents cannot run until it is connected")
        : null,
      agents.length ? h("p", { class: "meta" }, needy === 0 ? "Every agent is healthy." : h("strong", {}, `${needy} need${needy === 1 ? "s" : ""} attention`)) : null,
      agents.length === 0
        ? h("p", { class: "empty" }, "No agents known yet.")
        : h(
            "ul",
            { class: "agents" },
            agents.map((agent) =>
              h(
                "li",
                { "data-state": agent.shown },
                h("span", { class: `dot state-${agent.shown}`, "aria-hidden": "true" }),
                h("span", { class: "agent-id" }, agent.id),
                h("span", { class: `badge ${TONE[agent.shown] ?? ""}`, title: agent.shown === "unregistered" ? "POST /api/agents/register-missing, then approve" : undefined }, LABEL[agent.shown] ?? agent.shown),
                h("span", { class: "meta" }, agent.lastActivityMs ? time(agent.lastActivityMs) : "no activity", agent.model ? ` · ${agent.model}` : ""),
              ),
            ),
          ),
    );
  };
}
