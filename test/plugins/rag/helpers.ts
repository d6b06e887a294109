import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import type { PluginDefinition } from "@muster/plugin";
import type { ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { memoryPlugin } from "../../../plugins/memory/index.ts";
import { ragPlugin } from "../../../plugins/rag/index.ts";
import { searchPlugin } from "../../../plugins/search/index.ts";
import { streamPlugin } from "../../../plugins/stream/index.ts";
import { vaultPlugin } from "../../../plugins/vault/index.ts";
import { startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { eventRecorder, type EventRecorder } from "../../helpers/wait.ts";

export const plugins: PluginDefinition[] = [activitiesPlugin, memoryPlugin, searchPlugin, vaultPlugin, streamPlugin, ragPlugin];

/** A small workspace: topics that share few words, so the right file is clearly the best answer. */
export const corpus: Record<string, string> = {
  "memory/2026-11-20.md": "# Daily notes\n\nDeployed the billing service to staging.\nThe invoice generator timed out twice.\n\n## Follow-up\n\nRaise the invoice worker timeout and add retries.\n",
  "company/hiring.md": "# Hiring plan\n\nWe interview three backend engineers in December.\nCandidates do a pairing exercise and a system design round.\n",
  "projects/garden.md": "# Garden sensors\n\nSoil moisture sensors report every ten minutes over LoRa.\nThe greenhouse valve opens when moisture drops below thirty percent.\n",
  "insights/coffee.md": "# Coffee roasting\n\nA light roast keeps the fruity acidity of Ethiopian beans.\nDark roasts taste of chocolate and smoke.\n",
};

export function writeCorpus(workspace: string, files: Record<string, string> = corpus): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
}

export async function startRagHost(options: { rag?: Record<string, unknown>; home?: string; workspace?: string; files?: Record<string, string>; vaultKey?: string | null; ragPlugin?: PluginDefinition } = {}): Promise<{ h: TestHost; rec: EventRecorder }> {
  const rec = eventRecorder("rag.*", "rag-test-recorder");
  const h = await startTestHost({
    plugins: [...plugins.map((p) => (p.id === "rag" && options.ragPlugin ? options.ragPlugin : p)), rec.plugin],
    home: options.home,
    workspace: options.workspace,
    config: { vaultKey: options.vaultKey === undefined ? "correct horse battery staple" : options.vaultKey, gatewayToken: null, pluginConfig: { rag: { watchDebounceMs: 50, ...options.rag } } },
  });
  if (!options.workspace) writeCorpus(h.workspace, options.files);
  return { h, rec };
}

/** Waits for the `rag.index.finished` event of a job id. */
export async function finished(rec: EventRecorder, jobId: string, timeoutMs = 10_000) {
  const e = await rec.waitFor("rag.index.finished", (ev) => (ev.payload as { job: { id: string } }).job.id === jobId, timeoutMs);
  return (e.payload as { job: { id: string; status: string; done: number; total: number; error?: { code: string } } }).job;
}

/**
 * Every provider key stored, read straight from the database file (after the host stopped or
 * alongside it, WAL): the API shows counts for the active provider, not which keys rows carry.
 */
export function storedKeys(home: string): { files: string[]; chunks: string[] } {
  const db = new Database(join(home, "muster.db"), { readonly: true });
  try {
    const files = (db.prepare("SELECT DISTINCT providerKey AS k FROM rag_files ORDER BY k").all() as { k: string }[]).map((r) => r.k);
    const chunks = (db.prepare("SELECT DISTINCT providerKey AS k FROM rag_chunks ORDER BY k").all() as { k: string }[]).map((r) => r.k);
    return { files, chunks };
  } finally {
    db.close();
  }
}

/** `GET /api/memory/rag`'s answer: the OpenAPI schema does not list `fallback` (set when the query could not be embedded and full text answered), so it is added here. */
export type RagSearchBody = ApiBody<"getMemoryRag"> & { fallback?: { code: string; message: string } };
