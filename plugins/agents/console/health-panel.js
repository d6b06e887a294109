// The agents plugin's console panel (CONSOLE_PANELS): the gateway's state and each agent's
// health from GET /api/agents/health. Served by the dashboard; `kit` is its helpers.
export default function mountHealthPanel(element, { api, h, time }) {
  return async function refresh() {
    const health = await api.get("/api/agents/health");
    const agents = health.agents ?? [];
    const gateway = typeof health.gateway === "string" ? health.gateway : health.gateway?.state;
    element.replaceChildren(
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
  };
}
