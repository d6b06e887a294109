import { defineHook, WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED } from "@muster/plugin";
import { SEARCH } from "../tokens.ts";

/** Keeps the index current from the watcher's events and loads it in the background. */
export const startSearch = defineHook({
  deps: { index: SEARCH },
  run: ({ index }, ctx) => {
    // The watched locations come as file changes, markdown and YAML elsewhere as document changes.
    const offFiles = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => index.fileChanged(event.payload));
    const offDocuments = ctx.events.subscribe(WORKSPACE_DOCUMENT_CHANGED, (event) => index.fileChanged(event.payload));
    ctx.lifecycle.onStop(() => {
      offFiles();
      offDocuments();
    });
    // Not awaited: the server starts listening at once; searches answer from what is indexed so far.
    index.start();
  },
});

/** Saves the index at shutdown. */
export const stopSearch = defineHook({
  deps: { index: SEARCH },
  run: ({ index }) => index.stop(),
});
