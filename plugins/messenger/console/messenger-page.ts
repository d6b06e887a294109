// The Messenger page (`/console/messenger`): the Telegram bot's state from GET /api/messenger
// (never a secret's value), loaded again on the messenger's events, a new approval (which may
// not be pushed) and vault changes (a secret stored or deleted changes the mode).
import { html, muster, mountComponent, useResource, useStylesheet, ErrorNote, PageHeader } from "@muster/console";
import { Connection, LastUpdate, Media, Notices } from "./messenger-sections.ts";

function MessengerPage() {
  useStylesheet("/dashboard/plugins/messenger/messenger.css");
  const status = useResource(() => muster.getMessenger(), { events: ["messenger.*", "approvals.approval.created", "vault.secret.*"] });
  const s = status.data;
  return html`<div class="page messenger" data-page="messenger">
    <${PageHeader} title="Messenger" description="The Telegram bot: new approvals pushed to one chat with Approve and Reject buttons, /status, and media stored." />
    <${ErrorNote} error=${status.error} />
    ${s
      ? html`<div class="grid-2">
          <div class="stack"><${Connection} status=${s} /><${LastUpdate} status=${s} /></div>
          <div class="stack"><${Notices} status=${s} /><${Media} status=${s} /></div>
        </div>`
      : status.error ? null : html`<p class="meta" aria-live="polite">Loading the messenger's state…</p>`}
  </div>`;
}

export default mountComponent(MessengerPage);
