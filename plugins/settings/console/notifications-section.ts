// The human's notifications (plugins/notifications): newest first, marked read or dismissed
// one by one or all at once.
import { html, muster, useResource, ActionButton, Badge, DataTable, ErrorNote, Time } from "@muster/console";

type Notice = Awaited<ReturnType<typeof muster.getNotifications>>["notifications"][number];

export function NotificationsSection() {
  const list = useResource(() => muster.getNotifications({ query: { limit: 200 } }), { events: ["notifications.notification.*"] });
  const update = async (body: Parameters<typeof muster.patchNotifications>[0]["body"]) => {
    await muster.patchNotifications({ body });
    await list.reload();
  };
  const unread = list.data?.unreadCount ?? 0;
  return html`<${ErrorNote} error=${list.error} />
    <div class="toolbar">
      <span class="meta" aria-live="polite">${unread} unread</span>
      <${ActionButton} label="Mark all read" disabled=${unread === 0} onAction=${() => update({ action: "read_all" })} />
      <${ActionButton} label="Dismiss all" disabled=${!list.data?.notifications.length} confirm="Dismiss every notification?" onAction=${() => update({ action: "dismiss_all" })} />
    </div>
    <${DataTable} caption="Notifications" captionHidden=${true} rows=${list.data?.notifications} rowKey=${(n: Notice) => n.id} pageSize=${25} empty="No notifications."
      columns=${[
        { label: "When", render: (n: Notice) => html`<${Time} when=${n.createdAt} />` },
        { label: "Notification", render: (n: Notice) => html`${n.read ? null : html`<${Badge} tone="info">new<//> `}<strong>${n.title}</strong>${n.body ? html`<br /><span class="meta">${n.body}</span>` : null}` },
        { label: "Type", key: "type" },
        {
          label: "Actions",
          render: (n: Notice) => html`<div class="row-actions">
            ${n.read ? null : html`<${ActionButton} label="Mark read" ariaLabel=${`Mark read: ${n.title}`} onAction=${() => update({ action: "read", ids: [n.id] })} />`}
            <${ActionButton} label="Dismiss" ariaLabel=${`Dismiss: ${n.title}`} onAction=${() => update({ action: "dismiss", ids: [n.id] })} />
          </div>`,
        },
      ]} />`;
}
