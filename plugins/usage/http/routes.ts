import { defineRoutes } from "@muster/plugin";
import { USAGE_SERVICE } from "../services/register.ts";
import { budgetListResponse, budgetParams, budgetResponse, recordUsageBody, setBudgetBody, usageEventResponse, usageSeriesQuery, usageSeriesResponse, usageSummaryQuery, usageSummaryResponse } from "./schemas.ts";

/** The usage summary, cost events and budgets; the service is resolved once, when the routes mount. */
export const usageRoutes = defineRoutes({
  deps: { usage: USAGE_SERVICE },
  mount: (router, { usage }) => {
    router.get(
      "/api/usage",
      {
        summary: "Usage summary: today (the UTC day, or ?tz= an IANA zone's day) by agent, and all-time totals",
        description: "Read from aggregates kept on insert, never a scan of the events. An unknown tz is 400 USAGE_UNKNOWN_TIME_ZONE.",
        query: usageSummaryQuery,
        response: usageSummaryResponse,
      },
      async ({ query }) => ({ ok: true, ...(await usage.summary(query.tz)) }),
    );

    router.post(
      "/api/usage",
      {
        summary: "Log a cost event, priced with the configured price table (unknown model → 0 cents, priced: false)",
        description: "inputTokens and outputTokens default to 0 and must be whole numbers from 0 to config.usage.maxTokensPerEvent (default 100,000,000).",
        body: recordUsageBody,
        status: 201,
        response: usageEventResponse,
      },
      async ({ body }) => ({ ok: true, event: await usage.record(body) }),
    );

    router.get(
      "/api/usage/series",
      {
        summary: "Tokens and cost per day, agent and model over the last ?days= days (1-90, default 14; today included) in ?tz= (default UTC)",
        description: "Points only for (day, agent, model) with events; the console's usage charts. An unknown tz is 400 USAGE_UNKNOWN_TIME_ZONE.",
        query: usageSeriesQuery,
        response: usageSeriesResponse,
      },
      async ({ query }) => ({ ok: true, ...(await usage.series(query.days, query.tz)) }),
    );

    router.get(
      "/api/usage/budgets",
      { summary: "Every agent with a daily budget (set here or in config.usage.budgets) and what it spent today (UTC day)", response: budgetListResponse },
      async () => ({ ok: true, budgets: await usage.budgets() }),
    );

    router.get(
      "/api/usage/budgets/:agentId",
      { summary: "An agent's daily budget (UTC day) and what it spent today", params: budgetParams, response: budgetResponse },
      async ({ params }) => ({ ok: true, budget: await usage.budgetStatus(params.agentId) }),
    );

    router.put(
      "/api/usage/budgets/:agentId",
      {
        summary: "Set an agent's daily budget in cents (session token); overrides config.usage.budgets; a raise lifts BUDGET_EXCEEDED at once",
        auth: "session",
        params: budgetParams,
        body: setBudgetBody,
        response: budgetResponse,
      },
      async ({ params, body }) => ({ ok: true, budget: await usage.setBudget(params.agentId, body.dailyCents) }),
    );
  },
});
