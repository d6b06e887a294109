import { contribute, definePlugin } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { ragConfig, type RagConfig } from "./config.ts";
import { RagChunk } from "./entities/rag-chunk.ts";
import { RagFile } from "./entities/rag-file.ts";
import { RagSetting } from "./entities/rag-setting.ts";
import { migrations } from "./migrations.ts";
import { ragRoutes } from "./http/routes.ts";
import { registerRagServices } from "./services/register.ts";
import { startRag } from "./services/lifecycle.ts";

/**
 * Semantic search (RAG) over workspace and memory markdown: chunking, embedding providers,
 * vectors in SQLite, hybrid ranking. Its routes (/api/memory/rag, /api/memory/config) are
 * contributed to the memory plugin, which owns the /api/memory prefix (http/routes.ts).
 */
export const ragPlugin = definePlugin<RagConfig>({
  id: "rag",
  version: "1.0.0",
  host: "^1.0.0",
  // Full-text ranks for hybrid ranking, and the openai key; the memory plugin serves the
  // routes; the stream lists the indexing events. All optional.
  optionalDependsOn: ["search", "vault", "memory", "stream"],
  config: ragConfig,
  entities: [RagFile, RagChunk, RagSetting],
  migrations,
  register: registerRagServices,
  contributions: [
    ragRoutes,
    contribute(STREAM_EVENT_FAMILIES, { pattern: "rag.index.*", description: "An indexing job's progress after each file, and its end (done, failed or cancelled)" }),
  ],
  onStart: startRag,
});

export default ragPlugin;
