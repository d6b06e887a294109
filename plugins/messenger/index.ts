import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { messengerConfig } from "./config.ts";
import { MediaFile } from "./entities/media-file.ts";
import { SeenUpdate } from "./entities/seen-update.ts";
import { messengerRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { startMessenger } from "./services/lifecycle.ts";
import { registerMessengerServices } from "./services/register.ts";

/**
 * The Telegram messenger (DESIGN §14.10): new approvals are pushed to one chat with
 * Approve/Reject buttons, presses decide through the approvals service with the HTTP API's
 * rules, `/status` answers, and photos/documents are stored with limits. docs/messenger.md.
 */
export const messengerPlugin = definePlugin({
  id: "messenger",
  version: "1.0.0",
  host: "^1.0.0",
  // approvals: decisions and the created-approval event; vault: the bot token, webhook secret and chat id.
  dependsOn: ["approvals", "vault"],
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/messenger"],
  config: messengerConfig,
  entities: [SeenUpdate, MediaFile],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "messenger.notice.*", description: "An approval notice was sent to the messenger, or sending it failed" }),
    contribute(STREAM_EVENT_FAMILIES, { pattern: "messenger.update.received", description: "The messenger's webhook took an update (its kind and outcome, never its text)" }),
    contribute(STREAM_EVENT_FAMILIES, { pattern: "messenger.media.saved", description: "A photo or document from the chat was stored" }),
    contribute(CONSOLE_PAGES, {
      id: "messenger",
      title: "Messenger",
      group: "outside",
      order: 80,
      module: fileURLToPath(new URL("./console/messenger-page.ts", import.meta.url)),
      // A new approval may be skipped (not configured) without a messenger event.
      events: ["messenger.*", "approvals.approval.created", "vault.secret.*"],
    }),
  ],
  register: registerMessengerServices,
  routes: messengerRoutes,
  onStart: startMessenger,
});

export default messengerPlugin;
