// Hybrid search with `local` adds a third ranker, soft word matching (soft BM25 over word
// vectors, in the worker): a paraphrase whose answer is one sentence inside a long chunk
// about many things is found among distractors drawn from the same vocabulary, where the
// chunk's mean vector and exact-word full text both miss it; and a worker that dies while
// matching leaves search answering from the other rankers, never a 5xx.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MusterError, type PluginContext, type PluginDefinition } from "@muster/plugin";
import type { RagConfig } from "../../../plugins/rag/config.ts";
import { ragPlugin } from "../../../plugins/rag/index.ts";
import { LocalProvider } from "../../../plugins/rag/providers/local.ts";
import { registerRagServices } from "../../../plugins/rag/services/register.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { type RagSearchBody, startRagHost, writeCorpus } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const cacheDir = mkdtempSync(join(tmpdir(), "muster-rag-words-cache-"));
const t = suite("rag word matching");
t.after(() => rmSync(cacheDir, { recursive: true, force: true }));

/** Office-handbook sentences: the shared vocabulary of the answer and of every distractor. */
const SENTENCES = [
  "The quarterly budget review moves to the second week of the month.",
  "Marketing prepares the campaign calendar together with the sales leads.",
  "Every deployment to production needs a green pipeline and an approved review.",
  "The roadmap for next year focuses on reliability and customer onboarding.",
  "Invoices from vendors are paid within thirty days of receipt.",
  "The support team answers tickets in the order they arrive.",
  "Meeting notes are stored in the shared workspace after each planning session.",
  "Security audits happen twice a year with an external partner.",
  "New dashboards show revenue growth per region and per product.",
  "Database backups are tested weekly on a staging machine.",
  "The design team publishes its component guidelines in the handbook.",
  "Quarterly goals are written by each team and reviewed by the directors.",
  "Customer feedback from interviews feeds the product backlog.",
  "The incident process names an owner and a deadline for the follow-up.",
  "Subscription pricing changes are announced a month in advance.",
  "Analytics experiments run for two weeks before a decision is made.",
  "Contracts above a threshold need a second signature from finance.",
  "The documentation portal lists every endpoint and its schema.",
  "Weekly reports summarise the metrics of every active project.",
  "The kitchen is cleaned every evening and the fridge emptied on Fridays.",
  "Travel requests are approved by the team lead before booking.",
  "The print room on the second floor has paper and toner in the cupboard.",
];
const LONG_ANSWER_SENTENCE = "Anyone who cycles in can lock their bicycle in the basement garage next to the lifts.";

/** About 300 words: every sentence of the shared vocabulary, in an order set by `seed`, plus `extra` in the middle. */
function longSection(title: string, seed: number, extra: string): string {
  const order = SENTENCES.map((s, i) => ({ s, k: (i * 7919 + seed * 104729) % 9973 })).sort((a, b) => a.k - b.k).map((x) => x.s);
  order.splice(order.length >> 1, 0, extra);
  return `# ${title}\n\n${order.join(" ")}\n`;
}

/** Distractors share every sentence but one: theirs is about leave (the query's other word), not bicycles. */
const LEAVE = ["Annual leave is requested through the HR portal.", "Sick leave needs a note after three days.", "Parental leave is sixteen weeks at full pay.", "Unpaid leave is agreed with the manager.", "Leave balances reset in January.", "Study leave covers exam days.", "Leave requests over the holidays are granted by seniority.", "Compassionate leave is granted without questions."];
const files: Record<string, string> = { "company/handbook.md": longSection("Office handbook", 0, LONG_ANSWER_SENTENCE) };
LEAVE.forEach((s, i) => (files[`company/policies/policy-${i}.md`] = longSection(`Policy ${i}`, i + 1, s)));
// Shorter notes sharing vocabulary with the handbook (more neighbours for the mean vector).
SENTENCES.forEach((s, i) => (files[`notes/note-${i}.md`] = `# Note ${i}\n\n${s} ${SENTENCES[(i + 5) % SENTENCES.length]} ${LEAVE[i % LEAVE.length]}\n`));

const QUERY = "where can I leave my bike";

/** A host on `local` with `files` written before it starts (so the full-text index builds it at start-up), every file indexed. */
async function withLocal(options: { ragPlugin?: PluginDefinition; files?: Record<string, string> }, fn: (h: TestHost) => Promise<void>): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), "muster-rag-words-ws-"));
  writeCorpus(workspace, options.files ?? files);
  const { h } = await startRagHost({ workspace, ragPlugin: options.ragPlugin, rag: { localCacheDir: cacheDir } });
  try {
    await waitUntil(async () => (await h.json<ApiBody<"getSearch">>("/api/search?q=note")).body.stats?.indexing === false || null, { timeoutMs: 30_000 });
    const res = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "local", enabled: true } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await waitUntil(
      async () => {
        const a = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
        assert.ok(a);
        return a.provider === "local" && !a.dirty && a.total > 0 && a.indexed === a.total ? a : null;
      },
      { timeoutMs: 90_000 },
    );
    await fn(h);
  } finally {
    await h.stop();
    removeHome(h.home);
    rmSync(workspace, { recursive: true, force: true });
  }
}

const paths = async (h: TestHost, q: string, mode: string) => {
  const res = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent(q)}&mode=${mode}&limit=5`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.results.map((r: { path: string }) => r.path) as string[];
};

t("a paraphrase answered by one sentence of a long chunk ranks in the hybrid top 5, above same-vocabulary distractors the first stage prefers", async () => {
  await withLocal({}, async (h) => {
    // The first stage alone misses it: the long chunk's mean vector is diluted, and full text has no shared word.
    assert.not.ok((await paths(h, QUERY, "vector")).includes("company/handbook.md"), "vector ranking alone");
    assert.not.ok((await paths(h, QUERY, "fulltext")).includes("company/handbook.md"), "full text alone");
    const hybrid = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent(QUERY)}&mode=hybrid&limit=5`);
    assert.is(hybrid.status, 200);
    const found = hybrid.body.results.findIndex((r: { path: string }) => r.path === "company/handbook.md");
    assert.ok(found >= 0, JSON.stringify(hybrid.body.results.map((r: { path: string }) => r.path)));
    // The same answer shape: fused scores are reciprocal ranks, best first.
    const scores = hybrid.body.results.map((r: { score: number }) => r.score);
    assert.equal(scores, [...scores].sort((a: number, b: number) => b - a));
    assert.ok(scores.every((s: number) => s > 0 && s <= 1 / 61));
    // A query of the longest accepted length (1,000 characters, ~150 distinct words) still answers.
    const words = Array.from({ length: 200 }, (_, i) => SENTENCES[i % SENTENCES.length]!.split(" ")[i % 5]).join(" ");
    const long = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent(words.slice(0, 1000).trim())}&mode=hybrid&limit=5`);
    assert.is(long.status, 200, JSON.stringify(long.body));
    assert.is(long.body.results.length, 5);
    // Words the vectors do not know, and stop words only: answered, finite scores.
    for (const q of ["zqxvw blorptang", "the and of"]) {
      const odd = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent(q)}&mode=hybrid`);
      assert.is(odd.status, 200, q);
      for (const r of odd.body.results) assert.ok(Number.isFinite(r.score), q);
    }
    // The worker reuses its matching scratch between queries: the first query, asked again
    // after the long one matched most of the vocabulary, ranks exactly as it did.
    const again = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent(QUERY)}&mode=hybrid&limit=5`);
    assert.is(again.status, 200, JSON.stringify(again.body));
    const ranked = (body: RagSearchBody) => body.results.map((r: { path: string; score: number }) => [r.path, r.score]);
    assert.equal(ranked(again.body), ranked(hybrid.body));
  });
});

t("the worker dies while matching: hybrid answers 200 from vector and full-text ranks, and the next query works", async () => {
  const variant = { ...ragPlugin, register: (ctx) => registerRagServices(ctx as PluginContext<RagConfig>, { localWorkerUrl: new URL("./fixtures/crashing-worker.ts", import.meta.url) }) } as PluginDefinition;
  await withLocal({ ragPlugin: variant, files: { ...files, "notes/crash.md": "# Crash report\n\nThe crash while matching words was reproduced twice.\n" } }, async (h) => {
    const res = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent("crash while matching")}&mode=hybrid&limit=5`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.fallback, undefined, "the query was embedded; only the third ranker is missing");
    // The fixture's vectors are all alike, so the full-text rank is what brings the note in.
    assert.ok(res.body.results.some((r: { path: string }) => r.path === "notes/crash.md"), JSON.stringify(res.body.results));
    // A fresh worker answers the next queries (embedding and matching). Two: in a team
    // (MUSTER_TEST_TEAM) requests alternate, so the second goes to the instance whose worker died.
    for (let i = 0; i < 2; i++) {
      const next = await h.json<RagSearchBody>(`/api/memory/rag?q=${encodeURIComponent("crash report")}&mode=hybrid&limit=5`);
      assert.is(next.status, 200);
      assert.is(next.body.fallback, undefined, `query ${i + 1} after the crash was embedded`);
      assert.ok(next.body.results.some((r: { path: string }) => r.path === "notes/crash.md"));
    }
  });
});

t("the provider: word matching in a worker that dies fails with RAG_PROVIDER_UNAVAILABLE, and the next call resends the corpus to a fresh worker", async () => {
  const provider = new LocalProvider({ cacheDir, timeoutMs: 10_000, workerUrl: new URL("./fixtures/crashing-worker.ts", import.meta.url) });
  const asked: number[][] = [];
  const corpus = { ids: [1, 2], settled: true, texts: async (ids: number[]) => (asked.push(ids), new Map(ids.map((id) => [id, `chunk ${id}`]))) };
  try {
    const error = await provider.wordMatch("crash while matching", corpus, 5).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof MusterError, String(error));
    assert.is(error.code, "RAG_PROVIDER_UNAVAILABLE");
    assert.equal(await provider.wordMatch("bicycle", corpus, 5), []);
    assert.equal(asked, [[1, 2], [1, 2]], "the fresh worker got the whole corpus again");
  } finally {
    await provider.close();
  }
});

t.run();
