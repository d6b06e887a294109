// The usage plugin's console panel (CONSOLE_PANELS): today's tokens and estimated cost, per
// agent, from GET /api/usage. Served by the dashboard; `kit` is its helpers.
const number = new Intl.NumberFormat();
const dollars = (cents) => `$${(Number(cents ?? 0) / 100).toFixed(2)}`;

export default function mountUsagePanel(element, { api, h }) {
  return async function refresh() {
    const { today } = await api.get("/api/usage");
    const byAgent = Object.entries(today?.byAgent ?? {});
    element.replaceChildren(
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
  };
}
