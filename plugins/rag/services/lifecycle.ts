import { configToken, defineHook, WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED, type MusterEvent, type WorkspaceFileChange } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { RAG } from "../tokens.ts";
import { isIndexable } from "./workspace-files.ts";

/** Loads the configuration, resumes indexing, and re-indexes (debounced) on markdown changes. */
export const startRag = defineHook({
  deps: { rag: RAG, config: configToken<RagConfig>() },
  run: async ({ rag, config }, ctx) => {
    await rag.start();
    let timer: NodeJS.Timeout | undefined;
    const changed = (event: MusterEvent<WorkspaceFileChange>) => {
      if (!isIndexable(event.payload.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        rag.config().then(({ config }) => {
          if (config.enabled) rag.reindex({ agent: "main", force: false });
        }).catch((error: unknown) => ctx.logger.warn({ err: String(error) }, "re-index after a change failed"));
      }, config.watchDebounceMs);
    };
    // The watched locations come as file changes, markdown elsewhere as document changes.
    const offFiles = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, changed);
    const offDocuments = ctx.events.subscribe(WORKSPACE_DOCUMENT_CHANGED, changed);
    ctx.lifecycle.onStop(async () => {
      offFiles();
      offDocuments();
      clearTimeout(timer);
      await rag.stop();
    });
  },
});
