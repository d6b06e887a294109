import { configToken, defineHook, hostTokens, WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED, type MusterEvent, type WorkspaceFileChange } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { RAG } from "../tokens.ts";
import { isIndexable } from "./workspace-files.ts";

/**
 * Loads the configuration, resumes indexing, and re-indexes (debounced) on markdown changes.
 * In team mode only the primary instance indexes; every instance follows the others every 2 s
 * (the configuration, the jobs asked of the primary, the vectors it stored: rag-service.ts).
 */
export const startRag = defineHook({
  deps: { rag: RAG, config: configToken<RagConfig>(), instances: hostTokens.instances },
  run: async ({ rag, config, instances }, ctx) => {
    await rag.start();
    instances.everyWhileShared("rag's team sweep", () => rag.followTeam());
    let timer: NodeJS.Timeout | undefined;
    const changed = (event: MusterEvent<WorkspaceFileChange>) => {
      if (!isIndexable(event.payload.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        rag.changed().catch((error: unknown) => ctx.logger.warn({ err: String(error) }, "re-index after a change failed"));
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
