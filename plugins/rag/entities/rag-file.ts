import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** One indexed markdown file: what it held (content hash) and which provider embedded it. */
export const RagFile = defineEntity({
  name: "RagFile",
  tableName: "rag_files",
  properties: {
    /** Workspace-relative path. */
    path: p.string().primary(),
    /** SHA-256 of the content the stored chunks came from; unchanged files are skipped. */
    contentHash: p.string(),
    /** `provider:model:dimensions` of the stored vectors (providers/provider.ts). */
    providerKey: p.string(),
    chunks: p.integer(),
    indexedAt: p.string(),
  },
});
export type RagFileRow = EntityRow<typeof RagFile>;
