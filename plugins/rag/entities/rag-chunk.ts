import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** One embedded chunk: its place in the file, its text and its vector (Float32 little-endian BLOB). */
export const RagChunk = defineEntity({
  name: "RagChunk",
  tableName: "rag_chunks",
  properties: {
    id: p.integer().primary().autoincrement(),
    path: p.string(),
    startLine: p.integer(),
    endLine: p.integer(),
    text: p.text(),
    /** Vectors are only ever compared with vectors of the same key. */
    providerKey: p.string(),
    dimensions: p.integer(),
    vector: p.blob(),
  },
  indexes: [{ name: "rag_chunks_by_key", properties: ["providerKey", "path"] }, { name: "rag_chunks_by_path", properties: ["path"] }],
});
export type RagChunkRow = EntityRow<typeof RagChunk>;
