import { join } from "node:path";
import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { SEARCH } from "../../search/tokens.ts";
import { VAULT_SECRETS } from "../../vault/tokens.ts";
import type { RagConfig } from "../config.ts";
import { createProviders } from "../providers/registry.ts";
import { RAG } from "../tokens.ts";
import type { IndexJob } from "./index-job.ts";
import { Indexer } from "./indexer.ts";
import { RagService } from "./rag-service.ts";
import { VectorStore } from "./vector-store.ts";

/** Seams for tests: `resolve` replaces module resolution (a missing `local` package), `localWorkerUrl` the `local` worker script (one that crashes). */
export interface RagServiceOptions {
  resolve?: (specifier: string) => string;
  localWorkerUrl?: URL;
}

export function registerRagServices(ctx: PluginContext<RagConfig>, options: RagServiceOptions = {}): void {
  ctx.provide(
    defineService({
      token: RAG,
      deps: { db: hostTokens.db, instances: hostTokens.instances, events: hostTokens.events, workspace: hostTokens.workspace, watch: hostTokens.workspaceWatch, logger: hostTokens.logger, info: hostTokens.info, config: configToken<RagConfig>() },
      // Without search, ranking is by vector only; without the vault, `openai` has no key.
      optionalDeps: { fulltext: SEARCH, secrets: VAULT_SECRETS },
      create: ({ db, instances, events, workspace, watch, logger, info, config, fulltext, secrets }) => {
        const store = new VectorStore(() => db);
        // A locked vault (no VAULT_KEY) means no key: `openai` is then unavailable, nothing else fails.
        const openaiKey = () => {
          try {
            return secrets?.get(config.openaiKeySecret) ?? null;
          } catch {
            return null;
          }
        };
        const providers = createProviders(config, { openaiKey, localCacheDir: join(info.home, "cache", "rag"), logger, resolve: options.resolve, localWorkerUrl: options.localWorkerUrl });
        let indexer: Indexer;
        const service = new RagService({ store, providers, indexer: () => indexer, fulltext, logger, instances });
        indexer = new Indexer({ store, workspace, watch, events, logger, config, activeProvider: () => service.active(), changed: () => service.invalidate(), ...(instances.shared ? { report: (job: IndexJob) => service.shareJob(job) } : {}) });
        return Object.assign(service, { indexer });
      },
    }),
  );
}
