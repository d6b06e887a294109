import { definePlugin } from "@muster/plugin";
import { ragConfig, type RagConfig } from "./config.ts";
import { RagChunk } from "./entities/rag-chunk.ts";
import { RagFile } from "./entities/rag-file.ts";
import { RagSetting } from "./entities/rag-setting.ts";
import { migrations } from "./migrations.ts";
import { registerRagServices } from "./services/register.ts";
import { startRag } from "./services/lifecycle.ts";

/**
 * Semantic search (RAG) over workspace and memory markdown: chunking, embedding providers,
 * vectors in SQLite, hybrid ranking. Its routes (/api/memory/rag, /api/memory/config) are
 * mounted by the memory plugin, which owns the /api/memory prefix (http/routes.ts).
 */
export const ragPlugin = definePlugin<RagConfig>({
  id: "rag",
  version: "1.0.0",
  host: "^1.0.0",
  // Full-text ranks for hybrid ranking, and the openai key; both optional.
  optionalDependsOn: ["search", "vault"],
  config: ragConfig,
  entities: [RagFile, RagChunk, RagSetting],
  migrations,
  register: registerRagServices,
  onStart: startRag,
});

export default ragPlugin;
