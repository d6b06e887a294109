import type { Logger } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { HashProvider } from "./hash.ts";
import { LocalProvider } from "./local.ts";
import { OllamaProvider } from "./ollama.ts";
import { OpenAiProvider } from "./openai.ts";
import type { EmbeddingProvider, ProviderId } from "./provider.ts";

export interface ProviderEnvironment {
  openaiKey: () => string | null;
  /** Default directory of the `local` word-vector cache (under MUSTER_HOME) when the config names none. */
  localCacheDir: string;
  logger?: Logger;
  /** Module resolution for `local` (tests simulate a missing package with it). */
  resolve?: (specifier: string) => string;
  /** The `local` worker script (tests substitute one that crashes). */
  localWorkerUrl?: URL;
}

/** The four providers, built once from the plugin configuration. */
export function createProviders(config: Readonly<RagConfig>, env: ProviderEnvironment): Record<ProviderId, EmbeddingProvider> {
  const timeoutMs = config.timeoutMs;
  return {
    local: new LocalProvider({ cacheDir: config.localCacheDir ?? env.localCacheDir, timeoutMs, logger: env.logger, resolve: env.resolve, workerUrl: env.localWorkerUrl }),
    hash: new HashProvider(config.hashDimensions),
    ollama: new OllamaProvider({ url: config.ollamaUrl, model: config.ollamaModel, dimensions: config.ollamaDimensions, timeoutMs }),
    openai: new OpenAiProvider({ baseUrl: config.openaiBaseUrl, model: config.openaiModel, dimensions: config.openaiDimensions, timeoutMs, apiKey: env.openaiKey, keyName: config.openaiKeySecret }),
  };
}
