// Sample data for the console's screenshots and tests: tasks in every column, activities,
// pending and decided approvals, vault names and a few workspace writes.
import type { TestHost } from "../helpers/start-test-host.ts";
import type { FromRoute, RequestInitJson } from "@muster/plugin/testing";

/** `h.json` that throws on a refusal; typed from the literal path and method like `h.json`. */
async function ok<const P extends string, M extends string = "GET">(h: TestHost, path: P, init: RequestInitJson & { method?: M }) {
  const res = await h.json<FromRoute, P, M>(path, init);
  if (res.status >= 300) throw new Error(`${init?.method ?? "GET"} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function seedSampleData(h: TestHost): Promise<void> {
  const tasks: [string, string, string | null, string][] = [
    ["Draft the Q3 launch announcement", "backlog", null, "high"],
    ["Collect customer quotes for the case study", "backlog", null, "medium"],
    ["Refresh the pricing page copy", "in_progress", "writer", "high"],
    ["Benchmark the search index on 50k files", "in_progress", "engineer", "medium"],
    ["Review the onboarding email sequence", "review", "editor", "medium"],
    ["Publish the changelog for 1.4", "done", "writer", "low"],
    ["Fix the broken link checker", "done", "engineer", "medium"],
    ["Renew the analytics API key", "blocked", "ops", "critical"],
  ];
  for (const [title, status, assignedTo, priority] of tasks) {
    await ok(h, "/api/tasks", { method: "POST", body: { title, status, priority, ...(assignedTo ? { assignedTo } : {}) } });
  }
  const activities: [string, string, string | null, string | null][] = [
    ["writer", "task_started", "Refresh the pricing page copy", "Picked it up from the backlog"],
    ["engineer", "file_written", "reports/search-benchmark.md", "First run: 50k files indexed in 41 s"],
    ["editor", "review_requested", "Review the onboarding email sequence", null],
    ["ops", "task_blocked", "Renew the analytics API key", "Waiting for the vendor to answer"],
  ];
  for (const [agentId, action, target, details] of activities) {
    await ok(h, "/api/activities", { method: "POST", body: { agentId, action, ...(target ? { target } : {}), ...(details ? { details } : {}) } });
  }
  await ok(h, "/api/vault", { method: "POST", body: { name: "ANALYTICS_API_KEY", value: "sample-value-1", category: "api" } });
  await ok(h, "/api/vault", { method: "POST", body: { name: "NEWSLETTER_TOKEN", value: "sample-value-2", category: "publishing" } });
  const decided = await ok(h, "/api/approvals", {
    method: "POST",
    body: { title: "Delete the stale staging bucket", type: "infra.delete", requestedBy: "ops", context: "Unused since March; 40 GB." },
  });
  await ok(h, `/api/approvals/${decided.approval.id}`, { method: "PATCH", session: true, body: { status: "rejected", reason: "Keep it until the audit is over" } });
  await ok(h, "/api/approvals", {
    method: "POST",
    body: {
      title: "Send the 1.4 release newsletter to 2,400 subscribers",
      type: "newsletter.send",
      requestedBy: "writer",
      context: "The changelog is published; this sends the announcement email.",
      payload: { list: "customers", subject: "Muster 1.4 is out", scheduledFor: "2026-11-24T09:00:00.000Z", bodyFile: "content/newsletters/1.4.md" },
    },
  });
  await ok(h, "/api/approvals", {
    method: "POST",
    body: {
      title: "Deploy the new pricing page to production",
      type: "site.deploy",
      requestedBy: "engineer",
      context: "Preview checked on staging; the deploy replaces /pricing.",
      payload: { site: "www", branch: "pricing-refresh", commit: "4f2a9c1" },
    },
  });
  // The task created in `review` above already has its task.review approval (the dispatch
  // plugin's review flow; a gated kind, so it cannot be filed through POST /api/approvals).
  // Skills in two categories (the Skills page; each one reads on the Documents page).
  for (const [name, category, content] of [
    ["Code Review", "engineering", "# Code review\n\nRead the diff twice; run the tests before approving.\n"],
    ["Release Notes", "writing", "# Release notes\n\nOne line per change, newest first, linked to its task.\n"],
    ["Incident Timeline", "ops", "Write the timeline first, then the causes."],
  ]) {
    await ok(h, "/api/skills/import", { method: "POST", body: { name, category, content } });
  }
  // Today's usage, so the panel shows figures per agent (priced from config.usage.prices).
  await ok(h, "/api/usage", { method: "POST", body: { agentId: "writer", model: "anthropic/claude-sonnet-4-6", action: "session", inputTokens: 18_400, outputTokens: 3_200 } });
  await ok(h, "/api/usage", { method: "POST", body: { agentId: "builder", model: "anthropic/claude-sonnet-4-6", action: "task", inputTokens: 42_000, outputTokens: 9_800 } });
  // Feedback to agents (the Feedback page).
  await ok(h, "/api/feedback", { method: "POST", body: { agentId: "writer", type: "correction", content: "Quote prices with the currency and the billing period.", context: "Pricing page draft, second paragraph" } });
  await ok(h, "/api/feedback", { method: "POST", body: { agentId: "engineer", type: "praise", content: "The benchmark report states its method and machine: keep doing that." } });
  await ok(h, "/api/feedback", { method: "POST", body: { agentId: "ops", type: "rule", content: "Ask for approval before rotating any production key." } });
}
