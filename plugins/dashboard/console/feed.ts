// The live activity feed: recent activities, then every frame of the stream (workspace file
// changes and public events) as it arrives, newest first, at most 200 kept.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.ts";
import { muster } from "./client.ts";
import { matches, useLive, type LiveMessage } from "./live.ts";
import { ErrorNote, Time } from "./ui/basics.ts";

const MAX_ENTRIES = 200;
const VERBS: Record<string, string> = { created: "created", updated: "updated", deleted: "deleted", approved: "approved", rejected: "rejected", executed: "ran", execution_failed: "failed to run" };

interface Entry {
  key: string;
  kind: "activity" | "file" | "event";
  when: string | undefined;
  who: string;
  what: string;
  subject?: string;
  details?: string;
  description?: string;
  fresh?: boolean;
}

type Activity = Awaited<ReturnType<typeof muster.getActivities>>[number];
type Family = Awaited<ReturnType<typeof muster.getSseFamilies>>["families"][number];
let sequence = 0;

function fromActivity(activity: Activity, fresh = false): Entry {
  return { key: `a${++sequence}`, kind: "activity", when: activity.timestamp, who: activity.agentId, what: activity.action, subject: activity.target ?? undefined, details: activity.details ?? undefined, fresh };
}

function fromMessage(message: LiveMessage, families: readonly Family[]): Entry | null {
  if (message.type === "file_change") return { key: `f${++sequence}`, kind: "file", when: message.event.timestamp, who: "workspace", what: message.event.type, subject: message.event.path, fresh: true };
  if (message.type !== "event") return null;
  if (message.name === "activities.activity.created") return fromActivity(message.payload as unknown as Activity, true);
  const [plugin = "", entity = "", verb = ""] = message.name.split(".");
  const payload = message.payload ?? {};
  const subject = payload.title ?? payload.name ?? payload.id;
  return {
    key: `e${++sequence}`,
    kind: "event",
    when: message.timestamp,
    who: plugin,
    what: `${entity} ${VERBS[verb] ?? verb}`,
    subject: subject === undefined ? undefined : String(subject),
    details: entity === "task" && payload.status ? `status ${String(payload.status)}` : undefined,
    description: families.find((family) => matches(family.pattern, message.name))?.description,
    fresh: true,
  };
}

export function ActivityFeed() {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [families, setFamilies] = useState<readonly Family[]>([]);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    muster.getActivities({ query: { limit: 30 } }).then((activities) => setEntries(activities.map((activity) => fromActivity(activity))), setError);
    muster.getSseFamilies().then(({ families: loaded }) => setFamilies(loaded), () => setFamilies([]));
  }, []);
  useLive(["*", "file_change"], (message) => {
    const entry = fromMessage(message, families);
    if (entry) setEntries((current) => [entry, ...current].slice(0, MAX_ENTRIES));
  });
  return html`<section id="feed" class="panel" aria-labelledby="feed-title">
    <div class="panel-head"><h2 id="feed-title">Live activity</h2></div>
    <${ErrorNote} error=${error} prefix="Could not load recent activity." />
    <div role="log" aria-label="Activity, newest first"><ol id="feed-list" class="feed">
      ${entries.map(
        (entry) => html`<li key=${entry.key} class=${`entry ${entry.kind}${entry.fresh ? " new" : ""}`} title=${entry.description}>
          <span class="when"><${Time} when=${entry.when} /></span>
          <span class="who">${entry.who}</span>
          <span class="what"><strong>${entry.what}</strong>${entry.subject ? html` <code class="subject">${entry.subject}</code>` : null}${entry.details ? html` <span class="details">${entry.details}</span>` : null}</span>
        </li>`,
      )}
    </ol></div>
  </section>`;
}
