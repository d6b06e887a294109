import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { VAULT_SECRETS, type VaultSecretReader } from "../../vault/tokens.ts";
import type { MessengerConfig } from "../config.ts";
import { APPROVAL_NOTICES, MESSENGER_MEDIA, MESSENGER_STATUS, MESSENGER_WEBHOOK } from "../tokens.ts";
import { ApprovalNoticeSender } from "./approval-notices.ts";
import { MediaSaver } from "./media-saver.ts";
import { MessengerStatusReader } from "./messenger-status.ts";
import { TelegramClient } from "./telegram-client.ts";
import { UpdateStore } from "./update-store.ts";
import { WebhookService } from "./webhook-service.ts";

/** In team mode (several instances on one database) the bytes go into the database (entities/media-file.ts). */
const mediaSaver = (client: TelegramClient, store: UpdateStore, home: string, config: MessengerConfig, shared: boolean) =>
  new MediaSaver({ client, store, home, maxBytes: config.media.maxBytes, types: config.media.types, inDatabase: shared });

export function registerMessengerServices(ctx: PluginContext<MessengerConfig>): void {
  const config = configToken<MessengerConfig>();
  const client = (c: MessengerConfig, vault: VaultSecretReader) =>
    new TelegramClient({ apiBaseUrl: c.telegram.apiBaseUrl, timeoutMs: c.requestTimeoutMs, redact: (text) => vault.redact(text) });
  ctx.provide(
    defineService({
      token: MESSENGER_WEBHOOK,
      deps: { vault: VAULT_SECRETS, approvals: APPROVALS, db: hostTokens.db, host: hostTokens.info, logger: hostTokens.logger, events: hostTokens.events, instances: hostTokens.instances, config },
      create: ({ vault, approvals, db, host, logger, events, instances, config }) => {
        const store = new UpdateStore(() => db, config.maxSeenUpdates);
        const telegram = client(config, vault);
        return new WebhookService({
          vault,
          approvals,
          client: telegram,
          store,
          media: mediaSaver(telegram, store, host.home, config, instances.shared),
          logger,
          events,
          decidedBy: config.decidedBy,
          allowedUserIds: config.allowedUserIds,
        });
      },
    }),
  );
  ctx.provide(
    defineService({
      token: APPROVAL_NOTICES,
      deps: { vault: VAULT_SECRETS, events: hostTokens.events, logger: hostTokens.logger, config },
      create: ({ vault, events, logger, config }) =>
        new ApprovalNoticeSender({ vault, client: client(config, vault), events, logger, attempts: config.sendAttempts, retryDelayMs: config.sendRetryDelayMs }),
    }),
  );
  ctx.provide(
    defineService({
      token: MESSENGER_MEDIA,
      deps: { vault: VAULT_SECRETS, db: hostTokens.db, host: hostTokens.info, instances: hostTokens.instances, config },
      create: ({ vault, db, host, instances, config }) => mediaSaver(client(config, vault), new UpdateStore(() => db, config.maxSeenUpdates), host.home, config, instances.shared),
    }),
  );
  ctx.provide(
    defineService({
      token: MESSENGER_STATUS,
      deps: { vault: VAULT_SECRETS, db: hostTokens.db, notices: APPROVAL_NOTICES, config },
      create: ({ vault, db, notices, config }) => new MessengerStatusReader({ vault, store: new UpdateStore(() => db, config.maxSeenUpdates), notices, config }),
    }),
  );
}
