import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import { VAULT_SECRETS } from "../../vault/tokens.ts";
import type { PublishingConfig } from "../config.ts";
import { createAdapters } from "../platforms/adapters.ts";
import { PlatformHttp } from "../platforms/platform-http.ts";
import { CONTENT_DRAFTS, OUTBOX, PLATFORMS, PROFESSIONAL_NETWORK } from "../tokens.ts";
import { DraftService } from "./draft-service.ts";
import { DraftStore } from "./draft-store.ts";
import { OutboxService } from "./outbox-service.ts";
import { OutboxStore } from "./outbox-store.ts";
import { PlatformRegistry } from "./platform-registry.ts";
import { ProfessionalNetworkService } from "./professional-network.ts";

export function registerPublishingServices(ctx: PluginContext<PublishingConfig>): void {
  const config = configToken<PublishingConfig>();
  ctx.provide(
    defineService({
      token: PLATFORMS,
      deps: { vault: VAULT_SECRETS, config },
      create: ({ vault, config }) => new PlatformRegistry({ adapters: createAdapters(config).all, vault }),
    }),
  );
  ctx.provide(
    defineService({
      token: OUTBOX,
      deps: { platforms: PLATFORMS, vault: VAULT_SECRETS, notifications: NOTIFICATIONS, db: hostTokens.db, instances: hostTokens.instances, events: hostTokens.events, logger: hostTokens.logger, config },
      create: ({ platforms, vault, notifications, db, instances, events, logger, config }) =>
        new OutboxService({
          store: new OutboxStore(() => db, () => instances.id),
          instances,
          drafts: new DraftStore(() => db),
          platforms,
          http: new PlatformHttp(config.requestTimeoutMs),
          vault,
          events,
          notifications,
          logger,
          retry: { maxAttempts: config.maxAttempts, retryBaseDelayMs: config.retryBaseDelayMs, maxRetryDelayMs: config.maxRetryDelayMs, maxRetryAfterMs: config.maxRetryAfterMs },
        }),
    }),
  );
  ctx.provide(
    defineService({
      token: CONTENT_DRAFTS,
      deps: { platforms: PLATFORMS, db: hostTokens.db, gate: hostTokens.gate, events: hostTokens.events },
      create: ({ platforms, db, gate, events }) => new DraftService({ store: new DraftStore(() => db), platforms, gate, events }),
    }),
  );
  ctx.provide(
    defineService({
      token: PROFESSIONAL_NETWORK,
      deps: { platforms: PLATFORMS, vault: VAULT_SECRETS, gate: hostTokens.gate, logger: hostTokens.logger, config },
      create: ({ platforms, vault, gate, logger, config }) =>
        new ProfessionalNetworkService({ linkedin: createAdapters(config).linkedin, platforms, http: new PlatformHttp(config.requestTimeoutMs), vault, gate, logger }),
    }),
  );
}
