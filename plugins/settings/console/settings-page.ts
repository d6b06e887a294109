// The Settings page (`/console/settings`): the loaded plugins and their versions, the gateway
// link and its checks, notifications, autopilot goals and the key-value settings.
import { html, mountComponent, useStylesheet, PageHeader, Section } from "@muster/console";
import { GatewaySection, PluginsSection } from "./system-sections.ts";
import { NotificationsSection } from "./notifications-section.ts";
import { GoalsSection, KeyValueSection } from "./values-sections.ts";

function SettingsPage() {
  useStylesheet("/dashboard/plugins/settings/settings.css");
  return html`<div class="page settings" data-page="settings">
    <${PageHeader} title="Settings" description="This Muster: its plugins, the gateway link, notifications, autopilot goals and settings." />
    <div class="stack">
      <div class="grid-2">
        <${Section} title="Gateway"><${GatewaySection} /><//>
        <${Section} title="Autopilot goals"><${GoalsSection} /><//>
      </div>
      <${Section} title="Notifications"><${NotificationsSection} /><//>
      <${Section} title="Key-value settings"><${KeyValueSection} /><//>
      <${Section} title="Plugins"><${PluginsSection} /><//>
    </div>
  </div>`;
}

export default mountComponent(SettingsPage);
