// Today's spend against the daily budgets (UTC day, as budgets are kept), each budget edited in
// place, and a form that sets a budget for any agent (PUT /api/usage/budgets/{agentId}, session).
import { html, muster, useResource, useState, Badge, ErrorNote, Field, Form, Section } from "@muster/console";
import { dollars, tokens, USAGE_EVENTS, type BudgetStatus } from "./usage-data.ts";

const toCents = (text: string) => Math.round(Number(text) * 100);

function BudgetState({ budget }: { budget: BudgetStatus }) {
  if (budget.budgetCents === null) return html`<span class="meta">No budget</span>`;
  const share = budget.budgetCents === 0 ? 1 : budget.spentCents / budget.budgetCents;
  const percent = `${Math.round(share * 100)}%`;
  const tone = budget.exceeded ? "bad" : share >= 0.8 ? "warn" : "ok";
  return html`<span class="budget-state">
    <meter min="0" max="1" low="0.8" high="0.99" optimum="0" value=${Math.min(1, share)} aria-label=${`${budget.agentId}: ${percent} of the daily budget spent`}></meter>
    <${Badge} tone=${tone}>${budget.exceeded ? "Exceeded" : percent}<//>
  </span>`;
}

/** One row's budget, edited in place; the API's refusal shows under it. */
function BudgetEditor({ budget, onSaved }: { budget: BudgetStatus; onSaved: () => void }) {
  const [value, setValue] = useState(budget.budgetCents === null ? "" : String(budget.budgetCents / 100));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await muster.putUsageBudgetsByAgentId({ agentId: budget.agentId, body: { dailyCents: toCents(value) } });
      onSaved();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="budget-editor" aria-label=${`Daily budget of ${budget.agentId}`} onSubmit=${save}>
    <input type="number" min="0" step="0.01" required value=${value} aria-label=${`Daily budget of ${budget.agentId} in dollars`} onInput=${(event: Event) => setValue((event.currentTarget as HTMLInputElement).value)} />
    <button type="submit" class="button plain" disabled=${busy} aria-label=${`Save the budget of ${budget.agentId}`}>Save</button>
    <${ErrorNote} error=${error} />
  </form>`;
}

export function TodayAndBudgets() {
  const today = useResource(() => muster.getUsage(), { events: USAGE_EVENTS });
  const budgets = useResource(() => muster.getUsageBudgets().then((answer) => answer.budgets), { events: USAGE_EVENTS });
  const reload = () => void budgets.reload();
  const summary = today.data?.today;
  // Agents that spent today without a budget are listed too, so every spender shows.
  const rows: BudgetStatus[] = [...(budgets.data ?? [])];
  for (const [agentId, figures] of Object.entries(summary?.byAgent ?? {})) {
    if (!rows.some((row) => row.agentId === agentId)) rows.push({ agentId, spentCents: figures.cost, budgetCents: null, exceeded: false });
  }
  const setBudget = async (fields: FormData) => {
    await muster.putUsageBudgetsByAgentId({ agentId: String(fields.get("agentId") ?? "").trim(), body: { dailyCents: toCents(String(fields.get("dollars") ?? "")) } });
    reload();
  };
  return html`<${Section} title="Today against budgets" class="usage-today">
    <${ErrorNote} error=${today.error ?? budgets.error} />
    ${summary
      ? html`<dl class="figures">
          <div><dt>Input tokens</dt><dd>${tokens(summary.totalInputTokens)}</dd></div>
          <div><dt>Output tokens</dt><dd>${tokens(summary.totalOutputTokens)}</dd></div>
          <div><dt>Estimated cost</dt><dd>${dollars(summary.estimatedCostCents)}</dd></div>
        </dl>`
      : null}
    <p class="meta">Today is the UTC day ${summary?.date ?? ""}: budgets are daily, per agent, in UTC. At 80% the owner is notified; at 100% dispatch, crons and chat for that agent are refused (BUDGET_EXCEEDED) until the next day or a raise.</p>
    ${rows.length === 0
      ? html`<p class="empty">No budgets set and nothing spent today.</p>`
      : html`<div class="table-wrap"><table class="data budgets">
          <caption class="visually-hidden">Spend today against daily budgets</caption>
          <thead><tr><th scope="col">Agent</th><th scope="col">Spent today</th><th scope="col">Budget</th><th scope="col">State</th><th scope="col">Daily budget ($)</th></tr></thead>
          <tbody>${rows.map(
            (budget) => html`<tr key=${budget.agentId} data-agent=${budget.agentId}>
              <th scope="row">${budget.agentId}</th>
              <td data-label="Spent today">${dollars(budget.spentCents)}</td>
              <td data-label="Budget">${budget.budgetCents === null ? "—" : dollars(budget.budgetCents)}</td>
              <td data-label="State"><${BudgetState} budget=${budget} /></td>
              <td data-label="Daily budget ($)"><${BudgetEditor} key=${`${budget.agentId}:${budget.budgetCents}`} budget=${budget} onSaved=${reload} /></td>
            </tr>`,
          )}</tbody>
        </table></div>`}
    <h3 class="usage-subhead">Set a budget</h3>
    <${Form} label="Set a daily budget" submitLabel="Set budget" class="inline" onSubmit=${setBudget}>
      <${Field} label="Agent id" name="agentId" required=${true} />
      <${Field} label="Daily budget in dollars" name="dollars" type="number" min=${0} step="0.01" required=${true} />
    <//>
  <//>`;
}
