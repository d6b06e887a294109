// The Messenger page's sections, each drawn from GET /api/messenger: the connection (mode,
// the secrets stored by name, who a press decides as), the last update taken, the approval
// pushes and the media saved.
import { html, pageHref, Badge, Empty, Section, Time, type Muster, type Tone } from "@muster/console";

export type MessengerStatus = Awaited<ReturnType<Muster["getMessenger"]>>;

const MODES: Record<MessengerStatus["mode"], { text: string; tone: Tone; detail: string }> = {
  webhook: { text: "webhook", tone: "ok", detail: "New approvals are pushed to the chat, and the webhook takes button presses, /status and media." },
  "notices-only": { text: "notices only", tone: "warn", detail: "New approvals are pushed, but TELEGRAM_WEBHOOK_SECRET is not stored: every update (a button press) is refused." },
  off: { text: "off", tone: "muted", detail: "Nothing is pushed and the webhook refuses updates." },
};

const KINDS: Record<string, string> = { button: "an approval button press", command: "a command", media: "a photo or document", message: "a message", other: "an update Muster does not read" };

function stored(value: boolean | null) {
  if (value === null) return html`<${Badge} tone="warn">unknown: the vault cannot be read<//>`;
  return value ? html`<${Badge} tone="ok">stored<//>` : html`<${Badge} tone="bad">missing<//>`;
}

export function Connection({ status }: { status: MessengerStatus }) {
  const mode = MODES[status.mode];
  return html`<${Section} title="Connection">
    <dl class="facts">
      <dt>Mode</dt><dd><${Badge} tone=${mode.tone}>${mode.text}<//> <span class="meta">${mode.detail}</span></dd>
      <dt>Vault</dt><dd>${status.vault === "unlocked" ? "unlocked" : html`<${Badge} tone="bad">${status.vault}<//> no secret can be read`}</dd>
      <dt>Secrets</dt>
      <dd><ul class="secrets" aria-label="Messenger secrets in the vault">
        ${status.secrets.map((s) => html`<li><code>${s.name}</code> ${stored(s.stored)}</li>`)}
      </ul></dd>
      <dt>Webhook</dt><dd><code>${status.webhookPath}</code></dd>
      <dt>Bot API</dt><dd><code>${status.apiBaseUrl}</code></dd>
      <dt>A press decides as</dt><dd>${status.decidedBy ?? "the owner"}${status.allowedUsers > 0 ? ` · ${status.allowedUsers} Telegram user${status.allowedUsers === 1 ? "" : "s"} may press` : ""}</dd>
    </dl>
    ${status.configured ? null : html`<p class="notice">Store the missing secrets on the <a href=${pageHref("vault")}>Vault page</a> (docs/messenger.md says how to connect a bot).</p>`}
  <//>`;
}

export function LastUpdate({ status }: { status: MessengerStatus }) {
  const update = status.lastUpdate;
  return html`<${Section} title="Last update">
    ${update
      ? html`<dl class="facts">
          <dt>Received</dt><dd><${Time} when=${update.receivedAt} /></dd>
          <dt>Kind</dt><dd>${update.kind ? KINDS[update.kind] : "not recorded"}</dd>
          <dt>Update id</dt><dd>${update.updateId}</dd>
          <dt>Outcome</dt><dd>${update.ignored ? html`<${Badge} tone="warn">ignored<//> it came from another chat than TELEGRAM_CHAT_ID` : update.ignored === false ? "handled" : "not recorded"}</dd>
        </dl>`
      : html`<${Empty}>No update has reached the webhook yet.<//>`}
  <//>`;
}

export function Notices({ status }: { status: MessengerStatus }) {
  const n = status.notices;
  const failure = n.lastFailure;
  return html`<${Section} title="Approval notices">
    <p class="meta">Since the server started <${Time} when=${n.since} />.</p>
    <dl class="facts">
      <dt>Sent</dt><dd>${n.sent}${n.lastSentAt ? html` · last <${Time} when=${n.lastSentAt} />` : null}</dd>
      <dt>Failed</dt><dd>${n.failed > 0 ? html`<${Badge} tone="bad">${n.failed}<//>` : "0"}</dd>
      <dt>Not tried</dt><dd>${n.skipped} <span class="meta">(the bot token or chat id missing, or the vault locked)</span></dd>
    </dl>
    ${failure
      ? html`<div class="last-failure" role="group" aria-label="Last failed notice">
          <h3>Last failure</h3>
          <dl class="facts">
            <dt>When</dt><dd><${Time} when=${failure.at} /></dd>
            <dt>Code</dt><dd>${failure.status === null ? "no answer" : `HTTP ${failure.status}`}</dd>
            <dt>Message</dt><dd class="failure-reason">${failure.reason}</dd>
            <dt>Attempts</dt><dd>${failure.attempts}</dd>
            <dt>Approval</dt><dd><a href=${pageHref("approvals", failure.approvalId)}>Open the approval</a></dd>
          </dl>
        </div>`
      : null}
  <//>`;
}

export function Media({ status }: { status: MessengerStatus }) {
  const m = status.media;
  return html`<${Section} title="Media">
    ${m.saved === 0
      ? html`<${Empty}>No photo or document has been saved.<//>`
      : html`<dl class="facts">
          <dt>Saved</dt><dd>${m.saved} file${m.saved === 1 ? "" : "s"} · ${m.bytes} bytes</dd>
          <dt>Latest</dt><dd><${Time} when=${m.lastSavedAt} /></dd>
        </dl>`}
  <//>`;
}
