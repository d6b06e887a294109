// The usage plugin's console panel (CONSOLE_PANELS): today's tokens and estimated cost per
// agent, from GET /api/usage, and each agent's spend against its daily budget from
// GET /api/usage/budgets (left out when that route is absent). Served by the dashboard; `kit`
// is its helpers. The Usage page (/console/usage) has the charts and sets budgets.
const number = new Intl.NumberFormat();
const dollars = (cents) => `$${(Number(cents ?? 0) / 100).toFixed(2)}`;

export default function mountUsagePanel(element, { api, h }) {
  return async function refresh() {
    const [{ today }, budgets] = await Promise.all([api.get("/api/usage"), api.get("/api/usage/budgets").then((answer) => answer.budgets ?? [], () => [])]);
    const byAgent = Object.entries(today?.byAgent ?? {});
    const budgetOf = new Map(budgets.map((budget) => [budget.agentId, budget]));
    const againstBudget = (agent) => {
      const budget = budgetOf.get(agent);
      if (!budget || budget.budgetCents === null) return "";
      return budget.exceeded ? ` of ${dollars(budget.budgetCents)}: budget exceeded` : ` of ${dollars(budget.budgetCents)} budget`;
    };
    const rows = byAgent.map(([agent, figures]) => [agent, `${number.format(figures.input + figures.output)} tokens · ${dollars(figures.cost)}${againstBudget(agent)}`, budgetOf.get(agent)?.exceeded]);
    // Budgets of agents that spent nothing today still show, so an owner sees every limit.
    for (const budget of budgets) if (!today?.byAgent?.[budget.agentId]) rows.push([budget.agentId, `${dollars(budget.spentCents)}${againstBudget(budget.agentId)}`, budget.exceeded]);
    element.replaceChildren(
      h(
        "dl",
        { class: "figures" },
        h("div", {}, h("dt", {}, "Input tokens"), h("dd", {}, number.format(today?.totalInputTokens ?? 0))),
        h("div", {}, h("dt", {}, "Output tokens"), h("dd", {}, number.format(today?.totalOutputTokens ?? 0))),
        h("div", {}, h("dt", {}, "Estimated cost"), h("dd", {}, dollars(today?.estimatedCostCents))),
      ),
      rows.length
        ? h("ul", { class: "by-agent" }, rows.map(([agent, text, exceeded]) => h("li", {}, h("span", { class: "agent-id" }, agent), h("span", { class: exceeded ? "badge bad" : "meta" }, text))))
        : h("p", { class: "meta" }, "No usage recorded today."),
      h("p", { class: "meta" }, h("a", { href: "/console/usage" }, "Usage over time and budgets")),
    );
  };
}
