import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { publishingConfig } from "./config.ts";
import { ContentDraft } from "./entities/content-draft.ts";
import { OutboxEntry } from "./entities/outbox-entry.ts";
import { publishingRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { startPublishing } from "./services/lifecycle.ts";
import { registerPublishingServices } from "./services/register.ts";
import { publishAction } from "./services/publish-payload.ts";

/**
 * Publishing behind the approval gate (DESIGN §14.10): the professional network, content
 * drafts, platform adapters (LinkedIn, X, a blog/webhook) and the outbox that sends each
 * approved post once, now or at its scheduled time. docs/publishing.md.
 */
export const publishingPlugin = definePlugin({
  id: "publishing",
  version: "1.0.0",
  host: "^1.0.0",
  // approvals: publish requests are gated and a rejection updates the draft; vault: the
  // platform credentials; notifications: a failed or unknown post is told to the human.
  dependsOn: ["approvals", "vault", "notifications"],
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/professional-network", "/api/content"],
  config: publishingConfig,
  entities: [ContentDraft, OutboxEntry],
  migrations,
  contributions: [
    // The home page's failed and unknown sends (docs/console/approvals.md).
    contribute(CONSOLE_PANELS, { id: "failed-sends", title: "Failed sends", module: fileURLToPath(new URL("./console/failed-sends-panel.ts", import.meta.url)), events: ["publishing.outbox.*"] }),
    contribute(CONSOLE_PAGES, {
      id: "publishing",
      title: "Publishing",
      group: "outside",
      order: 10,
      module: fileURLToPath(new URL("./console/publishing-page.ts", import.meta.url)),
      events: ["publishing.*"],
    }),
    contribute(STREAM_EVENT_FAMILIES, { pattern: "publishing.*", description: "A draft was created, updated or deleted, or an outbox entry was queued, published or failed" }),
  ],
  register: registerPublishingServices,
  gatedActions: [publishAction],
  routes: publishingRoutes,
  onStart: startPublishing,
});

export default publishingPlugin;
