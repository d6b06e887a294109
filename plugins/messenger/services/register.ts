import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { VAULT_SECRETS, type VaultSecretReader } from "../../vault/tokens.ts";
import type { MessengerConfig } from "../config.ts";
import { APPROVAL_NOTICES, MESSENGER_STATUS, MESSENGER_WEBHOOK } from "../tokens.ts";
import { ApprovalNoticeSender } from "./approval-notices.ts";
import { MediaSaver } from "./media-saver.ts";
import { MessengerStatusReader } from "./messenger-status.ts";
import { TelegramClient } from "./telegram-client.ts";
import { UpdateStore } from "./update-store.ts";
import { WebhookService } from "./webhook-service.ts";

export function registerMessengerServices(ctx: PluginContext<MessengerConfig>): void {
  const config = configToken<MessengerConfig>();
  const client = (c: MessengerConfig, vault: VaultSecretReader) =>
    new TelegramClient({ apiBaseUrl: c.telegram.apiBaseUrl, timeoutMs: c.requestTimeoutMs, redact: (text) => vault.redact(text) });
  ctx.provide(
    defineService({
      token: MESSENGER_WEBHOOK,
      deps: { vault: VAULT_SECRETS, approvals: APPROVALS, db: hostTokens.db, host: hostTokens.info, logger: hostTokens.logger, events: hostTokens.events, config },
      create: ({ vault, approvals, db, host, logger, events, config }) => {
        const store = new UpdateStore(() => db, config.maxSeenUpdates);
        const telegram = client(config, vault);
        return new WebhookService({
          vault,
          approvals,
          client: telegram,
          store,
          media: new MediaSaver({ client: telegram, store, home: host.home, maxBytes: config.media.maxBytes, types: config.media.types }),
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
      token: MESSENGER_STATUS,
      deps: { vault: VAULT_SECRETS, db: hostTokens.db, notices: APPROVAL_NOTICES, config },
      create: ({ vault, db, notices, config }) => new MessengerStatusReader({ vault, store: new UpdateStore(() => db, config.maxSeenUpdates), notices, config }),
    }),
  );
}
