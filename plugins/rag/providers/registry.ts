import type { RagConfig } from "../config.ts";
import { HashProvider } from "./hash.ts";
import { LocalProvider } from "./local.ts";
import { OllamaProvider } from "./ollama.ts";
import { OpenAiProvider } from "./openai.ts";
import type { EmbeddingProvider, ProviderId } from "./provider.ts";

/** The four providers, built once from the plugin configuration. */
export function createProviders(config: Readonly<RagConfig>, openaiKey: () => string | null): Record<ProviderId, EmbeddingProvider> {
  const timeoutMs = config.timeoutMs;
  return {
    local: new LocalProvider({ modelDir: config.localModelDir, model: config.localModel, dimensions: config.localDimensions, timeoutMs }),
    hash: new HashProvider(config.hashDimensions),
    ollama: new OllamaProvider({ url: config.ollamaUrl, model: config.ollamaModel, dimensions: config.ollamaDimensions, timeoutMs }),
    openai: new OpenAiProvider({ baseUrl: config.openaiBaseUrl, model: config.openaiModel, dimensions: config.openaiDimensions, timeoutMs, apiKey: openaiKey, keyName: config.openaiKeySecret }),
  };
}
