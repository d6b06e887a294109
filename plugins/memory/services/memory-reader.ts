import type { Logger, WorkspacePaths } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { memoryErrors } from "../errors.ts";
import { listDailyMemory, type DailyMemoryFile } from "./daily-memory.ts";
import { indexDocuments, listDocuments, readDocument, type DocumentIndex, type WorkspaceDocument } from "./docs-scanner.ts";
import type { DocCategory } from "./doc-category.ts";
import { readLongTermMemory, type LongTermMemory } from "./long-term-memory.ts";
import { parseOrgStructure, type OrgStructure } from "./org-structure.ts";
import { outsideAsMissing, readTextFile } from "./text-file.ts";
import type { WorkspaceMemory } from "../tokens.ts";

export const ORG_FILE = "company/org_structure.yaml";

/** Read-only access to the workspace's memory, documents and organisation file. */
export class MemoryReader implements WorkspaceMemory {
  private readonly deps: { workspace: WorkspacePaths; config: MemoryConfig; logger: Logger };
  constructor(deps: { workspace: WorkspacePaths; config: MemoryConfig; logger: Logger }) {
    this.deps = deps;
  }

  /** Daily notes `memory/YYYY-MM-DD.md`, newest first. */
  daily(limit: number): Promise<DailyMemoryFile[]> {
    return listDailyMemory(this.deps, limit);
  }

  /** `MEMORY.md`; 404 `MEMORY_LONGTERM_NOT_FOUND` when absent. */
  longTerm(): Promise<LongTermMemory> {
    return readLongTermMemory(this.deps);
  }

  /** Markdown and YAML files of the workspace, newest first; with `path`, that one document (or none). */
  documents(options: { limit: number; category?: DocCategory; path?: string }): Promise<WorkspaceDocument[]> {
    return options.path === undefined ? listDocuments(this.deps, options) : readDocument(this.deps, options.path, options.category);
  }

  /** Every document's metadata (nothing read), newest first, with the count per category. */
  documentIndex(options: { limit: number; category?: DocCategory }): Promise<DocumentIndex> {
    return indexDocuments(this.deps, options);
  }

  /**
   * The parsed organisation file. 404 `ORG_FILE_NOT_FOUND` when absent; 422
   * `ORG_FILE_INVALID` when it is not YAML, too large or binary.
   */
  async orgStructure(): Promise<{ org: OrgStructure; warnings: string[]; modifiedAt: string }> {
    const max = this.deps.config.orgFileMaxBytes;
    const file = await readTextFile(this.deps.workspace, ORG_FILE, { maxBytes: max, wordCountMaxBytes: 0 }).catch(outsideAsMissing);
    if (!file) throw memoryErrors.ORG_FILE_NOT_FOUND();
    if (file.binary) throw memoryErrors.ORG_FILE_INVALID({ reason: "it is a binary file" }, { details: { code: "NOT_TEXT" } });
    if (file.truncated) throw memoryErrors.ORG_FILE_INVALID({ reason: `it is larger than ${max} bytes` }, { details: { code: "TOO_LARGE", size: file.size } });
    return { ...parseOrgStructure(file.content), modifiedAt: file.modifiedAt };
  }
}
