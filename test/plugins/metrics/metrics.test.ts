// GET /metrics: the Prometheus text format parsed strictly, values that move with requests,
// route templates instead of raw paths, the gauges of the plugins present, label escaping,
// and access like the API (open on loopback, the bearer token when one is configured).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { randomUUID } from "node:crypto";
import { withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { singleInstanceTest } from "../../helpers/team-host.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { readdirSync, readFileSync } from "node:fs";
import { contributeWith, definePlugin, hostTokens } from "@muster/plugin";
import { renderExposition } from "../../../plugins/metrics/services/exposition.ts";
import { METRIC_SOURCES } from "../../../plugins/metrics/tokens.ts";
import { parseExposition, sampleValue } from "./exposition-parser.ts";
import { type ApiBody, decideApproval } from "@muster/plugin/testing";

const t = suite("metrics");
// GET /metrics is the answering process's own counters (they start at zero with each
// process; Prometheus scrapes each instance of a team): these tests count the requests they sent.
const oneProcess = singleInstanceTest(t, "counts its own requests in one process's counters; in a team each instance is scraped on its own");

async function scrape(h: TestHost, headers: Record<string, string> = {}) {
  const res = await h.request("/metrics", { headers });
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  return parseExposition(await res.text());
}

oneProcess("the exposition parses strictly: HELP and TYPE before every family, histograms cumulative with +Inf = count", () =>
  withTestHost(async (h) => {
    await h.request("/api/tasks");
    const families = await scrape(h);
    for (const name of ["muster_http_requests_total", "muster_http_request_duration_seconds", "muster_sse_clients", "muster_gateway_up", "muster_gateway_state", "muster_search_index_files", "muster_approvals_pending", "process_resident_memory_bytes", "nodejs_heap_used_bytes", "process_start_time_seconds"]) {
      assert.ok(families.has(name), `${name} is exported`);
      assert.ok(families.get(name)!.help.length > 0);
    }
    assert.is(families.get("muster_http_requests_total")!.type, "counter");
    const histogram = families.get("muster_http_request_duration_seconds")!;
    assert.is(histogram.type, "histogram");
    const labels = { method: "GET", route: "/api/tasks" };
    const buckets = histogram.samples.filter((s) => s.name.endsWith("_bucket") && s.labels.route === "/api/tasks" && s.labels.method === "GET");
    assert.ok(buckets.length > 2);
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i]!.value >= buckets[i - 1]!.value, "buckets are cumulative");
    assert.is(buckets.at(-1)!.labels.le, "+Inf");
    assert.is(buckets.at(-1)!.value, sampleValue(families, "muster_http_request_duration_seconds_count", labels));
    assert.ok(sampleValue(families, "muster_http_request_duration_seconds_sum", labels)! > 0);
    assert.ok(sampleValue(families, "process_resident_memory_bytes")! > 0);
  }));

oneProcess("request counters move by route template and status; raw paths never become labels", () =>
  withTestHost(async (h) => {
    const notFound = { method: "GET", route: "/api/tasks/:id", status: "404" };
    const before = sampleValue(await scrape(h), "muster_http_requests_total", notFound) ?? 0;
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) assert.is((await h.request(`/api/tasks/${id}`)).status, 404);
    const created = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "counted" } });
    assert.is(created.status, 201);
    const rawPath = `/no-such-page/${randomUUID()}`;
    assert.is((await h.request(rawPath)).status, 404);
    const families = await scrape(h);
    assert.is(sampleValue(families, "muster_http_requests_total", notFound), before + 2);
    assert.is(sampleValue(families, "muster_http_requests_total", { method: "POST", route: "/api/tasks", status: "201" }), 1);
    assert.ok(sampleValue(families, "muster_http_requests_total", { method: "GET", route: "(unmatched)", status: "404" })! >= 1);
    const text = await (await h.request("/metrics")).text();
    for (const raw of [...ids, rawPath]) assert.not.match(text, raw, "no raw path in any label");
  }));

t("gauges follow the server: pending approvals, stream clients, gateway state, search index", () =>
  withTestHost(async (h) => {
    let families = await scrape(h);
    assert.is(sampleValue(families, "muster_approvals_pending"), 0);
    assert.is(sampleValue(families, "muster_sse_clients"), 0);
    // Test hosts run with GATEWAY_URL=off.
    assert.is(sampleValue(families, "muster_gateway_state", { state: "disabled" }), 1);
    assert.is(sampleValue(families, "muster_gateway_state", { state: "connected" }), 0);
    assert.is(sampleValue(families, "muster_gateway_up"), 0);
    assert.ok(sampleValue(families, "muster_search_index_files")! >= 0);

    const approval = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "Ship it", type: "deploy", requestedBy: "agent-a", context: "" } });
    assert.is(approval.status, 201);
    const stream = await openSse(h.url);
    try {
      await stream.next((f) => f.data?.type === "connected");
      families = await scrape(h);
      assert.is(sampleValue(families, "muster_approvals_pending"), 1);
      assert.is(sampleValue(families, "muster_sse_clients"), 1);
    } finally {
      stream.close();
    }
    await waitUntil(async () => sampleValue(await scrape(h), "muster_sse_clients") === 0, { label: "the stream client to be gone", timeoutMs: 5_000 });
    await decideApproval(h, approval.body.approval.id, "rejected");
    assert.is(sampleValue(await scrape(h), "muster_approvals_pending"), 0);
  }));

t("label values and help text are escaped: quotes, backslashes and line feeds cannot forge a sample", () => {
  const nasty = 'a"b\\c\nmuster_fake 1';
  const text = renderExposition([{ name: "x_total", help: "line one\nline two \\ end", type: "counter", samples: [{ labels: { route: nasty }, value: 3 }] }]);
  assert.is(text, '# HELP x_total line one\\nline two \\\\ end\n# TYPE x_total counter\nx_total{route="a\\"b\\\\c\\nmuster_fake 1"} 3\n');
  const families = parseExposition(text);
  assert.equal([...families.keys()], ["x_total"]);
  assert.is(families.get("x_total")!.samples[0]!.labels.route, nasty);
  assert.is(families.get("x_total")!.help, "line one\nline two \\ end");
});

oneProcess("access like the API: a foreign Origin is refused; with MUSTER_API_TOKEN the bearer token is required", async () => {
  await withTestHost(async (h) => {
    const foreign = await h.json("/metrics", { headers: { origin: "http://evil.example" } });
    assert.is(foreign.status, 403);
    assert.is(foreign.body.error?.code, "ORIGIN_NOT_ALLOWED");
    const query = await h.json("/metrics?format=json");
    assert.is(query.status, 400);
    assert.is(query.body.error?.code, "VALIDATION_FAILED");
  });
  await withTestHost({ config: { apiToken: "metrics-test-token" } }, async (h) => {
    const anonymous = await h.json("/metrics");
    assert.is(anonymous.status, 401);
    assert.is(anonymous.body.error?.code, "UNAUTHORIZED");
    const wrong = await h.json("/metrics", { headers: { authorization: "Bearer nope" } });
    assert.is(wrong.status, 401);
    const families = await scrape(h, { authorization: "Bearer metrics-test-token" });
    assert.ok(sampleValue(families, "muster_http_requests_total", { method: "GET", route: "(unmatched)", status: "401" })! >= 2, "refused scrapes are counted too");
  });
});

/** A third-party plugin's family, read from a host service at every scrape; and a source that always fails. */
let widgets = 0;
const widgetsPlugin = definePlugin({
  id: "widgets",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["metrics"],
  contributions: [
    contributeWith(METRIC_SOURCES, {
      deps: { info: hostTokens.info },
      create: ({ info }) => ({
        collect: () => [{ name: "muster_widgets_total", help: "Widgets made.", type: "counter", samples: [{ labels: { version: info.version }, value: widgets }] }],
      }),
    }),
  ],
});
const brokenPlugin = definePlugin({
  id: "broken-source",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["metrics"],
  contributions: [contributeWith(METRIC_SOURCES, { deps: {}, create: () => ({ collect: () => Promise.reject(new Error("busy")) }) })],
});

t("a plugin's contributed family appears in /metrics, current at every scrape; a failing source is left out, the scrape still answers", () =>
  withTestHost({ extraPlugins: [widgetsPlugin, brokenPlugin] }, async (h) => {
    widgets = 3;
    let families = await scrape(h);
    assert.is(families.get("muster_widgets_total")?.help, "Widgets made.");
    assert.is(families.get("muster_widgets_total")?.type, "counter");
    assert.is(families.get("muster_widgets_total")?.samples[0]?.value, 3);
    widgets = 5;
    families = await scrape(h);
    assert.is(families.get("muster_widgets_total")?.samples[0]?.value, 5);
    for (const name of ["muster_http_requests_total", "muster_gateway_up", "muster_sse_clients", "muster_search_index_files", "muster_approvals_pending", "muster_info"]) assert.ok(families.has(name), name);
  }));

t("the metrics plugin imports no other plugin: the others contribute their families", () => {
  const dir = new URL("../../../plugins/metrics/", import.meta.url);
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  assert.ok(files.length > 3);
  for (const file of files) {
    for (const [, specifier] of readFileSync(new URL(file, dir), "utf8").matchAll(/from "(\.[^"]+)"/g)) {
      assert.ok(new URL(specifier!, new URL(file, dir)).href.startsWith(dir.href), `${file} imports ${specifier}`);
    }
  }
});

t.run();
