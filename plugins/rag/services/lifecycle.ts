import { configToken, defineHook, WORKSPACE_FILE_CHANGED } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { RAG } from "../tokens.ts";
import { isIndexable } from "./workspace-files.ts";

/** Loads the configuration, resumes indexing, and re-indexes (debounced) on markdown changes. */
export const startRag = defineHook({
  deps: { rag: RAG, config: configToken<RagConfig>() },
  run: async ({ rag, config }, ctx) => {
    await rag.start();
    let timer: NodeJS.Timeout | undefined;
    const unsubscribe = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => {
      if (!isIndexable(event.payload.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        rag.config().then(({ config }) => {
          if (config.enabled) rag.reindex({ agent: "main", force: false });
        }).catch((error: unknown) => ctx.logger.warn({ err: String(error) }, "re-index after a change failed"));
      }, config.watchDebounceMs);
    });
    ctx.lifecycle.onStop(async () => {
      unsubscribe();
      clearTimeout(timer);
      await rag.stop();
    });
  },
});
