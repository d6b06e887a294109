import { WORKSPACE_FILE_CHANGED, type PluginContext } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { RAG } from "../tokens.ts";
import { isIndexable } from "./workspace-files.ts";

/** Loads the configuration, resumes indexing, and re-indexes (debounced) on markdown changes. */
export async function startRag(ctx: PluginContext<RagConfig>): Promise<void> {
  const rag = ctx.resolve(RAG);
  await rag.start();
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => {
    if (!isIndexable(event.payload.path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      rag.config().then(({ config }) => {
        if (config.enabled) rag.reindex({ agent: "main", force: false });
      }).catch((error: unknown) => ctx.logger.warn({ err: String(error) }, "re-index after a change failed"));
    }, ctx.config.watchDebounceMs);
  });
  ctx.lifecycle.onStop(async () => {
    unsubscribe();
    clearTimeout(timer);
    await rag.stop();
  });
}
