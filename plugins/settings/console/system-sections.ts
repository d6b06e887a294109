// The host's facts on the Settings page: the loaded plugins and their versions
// (GET /api/plugins), and the gateway link (GET /api/health's gateway: state, address,
// since when, the last error; `muster doctor` has no HTTP route, so its gateway checks are
// these facts plus the agents the gateway does not know).
import { html, muster, useResource, Badge, DataTable, ErrorNote, Time } from "@muster/console";

type Plugin = Awaited<ReturnType<typeof muster.getPlugins>>["plugins"][number];

export function PluginsSection() {
  const plugins = useResource(() => muster.getPlugins());
  return html`<${ErrorNote} error=${plugins.error} />
    <${DataTable} caption="Loaded plugins" captionHidden=${true} rows=${plugins.data?.plugins} rowKey=${(p: Plugin) => p.id} pageSize=${50}
      columns=${[
        { label: "Plugin", render: (p: Plugin) => html`<strong>${p.id}</strong>` },
        { label: "Version", key: "version" },
        { label: "State", render: (p: Plugin) => html`<${Badge} tone=${p.state === "started" ? "ok" : "warn"}>${p.state}<//>` },
        { label: "Source", key: "source" },
        { label: "Depends on", render: (p: Plugin) => p.dependsOn.join(", ") || "—" },
      ]} />`;
}

const CHECK = { connected: "ok", connecting: "warn", down: "bad", unauthorized: "bad", disabled: "muted" } as const;
const ADVICE: Record<string, string> = {
  connected: "Muster is connected to the OpenClaw gateway.",
  connecting: "Muster is connecting to the gateway.",
  down: "The gateway does not answer: is OpenClaw running at this address? Run `muster doctor` for the full checks.",
  unauthorized: "The gateway refused Muster's token: check gatewayToken in muster.config.json (or MUSTER_GATEWAY_TOKEN).",
  disabled: "No gateway is configured: set gatewayUrl in muster.config.json to link one.",
};

export function GatewaySection() {
  const facts = useResource(() => Promise.all([muster.getHealth(), muster.getAgentsHealth()]), { events: ["agents.*"] });
  if (!facts.data) return html`<${ErrorNote} error=${facts.error} />`;
  const [{ gateway, version }, crew] = facts.data;
  const unknown = crew.agents.filter((agent) => agent.registered === false).map((agent) => agent.id);
  return html`<${ErrorNote} error=${facts.error} />
    <ul class="checks" aria-label="Gateway checks">
      <li><${Badge} tone=${CHECK[gateway.state]}>${gateway.state}<//> Link state since <${Time} when=${gateway.since} /></li>
      <li><${Badge} tone=${gateway.url ? "ok" : "muted"}>${gateway.url ? "set" : "none"}<//> Address: ${gateway.url ? html`<code>${gateway.url}</code>` : "not configured"}</li>
      ${gateway.lastError ? html`<li><${Badge} tone="bad">error<//> Last error: ${gateway.lastError}</li>` : null}
      <li><${Badge} tone=${unknown.length ? "bad" : "ok"}>${unknown.length ? "missing" : "ok"}<//> Agents the gateway does not know: ${unknown.length ? unknown.join(", ") : "none"}</li>
    </ul>
    <p class="meta">${ADVICE[gateway.state] ?? ""} Muster ${version}.</p>`;
}
