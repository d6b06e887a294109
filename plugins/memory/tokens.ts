import { extensionPoint, token, type PluginRouter } from "@muster/plugin";
import type { DailyMemoryFile } from "./services/daily-memory.ts";
import type { DocCategory } from "./services/doc-category.ts";
import type { DocumentIndex, WorkspaceDocument } from "./services/docs-scanner.ts";
import type { LongTermMemory } from "./services/long-term-memory.ts";
import type { OrgStructure } from "./services/org-structure.ts";

export type { DailyMemoryFile, DocCategory, DocumentIndex, LongTermMemory, OrgStructure, WorkspaceDocument };

/** Read-only access to the workspace's memory, documents and organisation file. */
export interface WorkspaceMemory {
  /** Daily notes `memory/YYYY-MM-DD.md`, newest first. */
  daily(limit: number): Promise<DailyMemoryFile[]>;
  /** `MEMORY.md`; 404 `MEMORY_LONGTERM_NOT_FOUND` when absent. */
  longTerm(): Promise<LongTermMemory>;
  /** Markdown and YAML files of the workspace, newest first. */
  documents(options: { limit: number; category?: DocCategory; path?: string }): Promise<WorkspaceDocument[]>;
  /** Every document's metadata (nothing read), newest first, with the count per category. */
  documentIndex(options: { limit: number; category?: DocCategory }): Promise<DocumentIndex>;
  /** The parsed organisation file. */
  orgStructure(): Promise<{ org: OrgStructure; warnings: string[]; modifiedAt: string }>;
}

/** Workspace memory, documents and the parsed organisation file. Depend on the `memory` plugin to use it. */
export const MEMORY_READER = token<WorkspaceMemory>("memory.reader");

/**
 * Routes another plugin serves under `/api/memory/` (the rag plugin's `/api/memory/rag` and
 * `/api/memory/config`): this plugin owns the prefix, so it mounts them on its router, after
 * its own memory routes. Contribute with `contributeWith(MEMORY_ROUTES, { deps, create })`
 * and list `memory` in dependsOn or optionalDependsOn; a path outside `/api/memory/` is refused at start.
 */
export const MEMORY_ROUTES = extensionPoint<(router: PluginRouter) => void>("memory.routes");
