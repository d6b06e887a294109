import { defineHook, WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED } from "@muster/plugin";
import { SEARCH } from "../tokens.ts";
import { SEARCH_DEPLOYMENT } from "./team.ts";

/** Keeps the index current from the watcher's events and loads it in the background. */
export const startSearch = defineHook({
  deps: { index: SEARCH, deployment: SEARCH_DEPLOYMENT },
  run: async ({ index, deployment }, ctx) => {
    // The watched locations come as file changes, markdown and YAML elsewhere as document changes.
    const offFiles = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => index.fileChanged(event.payload));
    const offDocuments = ctx.events.subscribe(WORKSPACE_DOCUMENT_CHANGED, (event) => index.fileChanged(event.payload));
    ctx.lifecycle.onStop(() => {
      offFiles();
      offDocuments();
    });
    // Not awaited: the server starts listening at once; searches answer from what is indexed so far.
    index.start();
    // Its term lookups are prepared once requests are let through (no start waits for them).
    ctx.lifecycle.onServing(() => index.warmUp());
    // Team mode: this instance's state is published before it answers (one row); nothing on one process.
    await deployment.start();
  },
});

/**
 * Saves the index at shutdown (team mode: the primary's). In team mode the instance first
 * withdraws its published state and stops following re-index requests.
 */
export const stopSearch = defineHook({
  deps: { index: SEARCH, deployment: SEARCH_DEPLOYMENT },
  run: async ({ index, deployment }) => {
    await deployment.stop();
    await index.stop();
  },
});
