// The form that creates a cron job: name, agent (suggested from the crew), the five-field
// expression, the time zone (suggested from the browser's list, the viewer's own by default),
// an optional model and the message. A refusal (CRON_INVALID_EXPRESSION, CRON_UNKNOWN_TIME_ZONE,
// CRON_AGENT_NOT_FOUND) shows its code under the form and keeps what was typed.
import { html, muster, useRef, useResource, Field, Form } from "@muster/console";
import { viewerZone, type CronJob } from "./schedule-parts.ts";

let listIds = 0;
/** A labelled text input with suggestions (`<datalist>`); any value may still be typed. */
function SuggestField({ label, name, hint, value, suggestions, required }: { label: string; name: string; hint: string; value?: string; suggestions: readonly string[]; required?: boolean }) {
  const id = useRef(`suggest-${++listIds}`).current;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} name=${name} value=${value} list=${`${id}-list`} required=${required} autocomplete="off" aria-describedby=${`${id}-hint`} />
    <datalist id=${`${id}-list`}>${suggestions.map((suggestion) => html`<option value=${suggestion}></option>`)}</datalist>
    <p class="hint" id=${`${id}-hint`}>${hint}</p>
  </div>`;
}

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
};

const text = (fields: FormData, name: string): string => String(fields.get(name) ?? "").trim();

export function ScheduleForm({ onCreated }: { onCreated: (job: CronJob) => void }) {
  // The crew is optional (the agents plugin may be absent): without it the id is typed freely.
  const agents = useResource(() => muster.getAgents().then((answer) => answer.agents.map((agent) => agent.id), () => [] as string[]));
  const create = async (fields: FormData) => {
    const model = text(fields, "model");
    const { job } = await muster.postCrons({
      body: { name: text(fields, "name"), agentId: text(fields, "agentId"), cron: text(fields, "cron"), timezone: text(fields, "timezone") || undefined, message: String(fields.get("message") ?? ""), ...(model ? { model } : {}) },
    });
    onCreated(job);
  };
  return html`<${Form} label="New schedule" submitLabel="Create schedule" onSubmit=${create}>
    <div class="grid-2">
      <${Field} label="Name" name="name" required=${true} placeholder="Morning report" />
      <${SuggestField} label="Agent" name="agentId" required=${true} hint="The agent that gets the message." suggestions=${agents.data ?? []} />
      <${Field} label="Cron expression" name="cron" required=${true} placeholder="0 9 * * 1-5" hint="Five fields: minute, hour, day of month, month, day of week (0 9 * * 1-5 is 09:00 on weekdays)." />
      <${SuggestField} label="Time zone" name="timezone" value=${viewerZone()} hint="An IANA name (Europe/Paris); the schedule follows its daylight saving." suggestions=${zones()} />
      <${Field} label="Model (optional)" name="model" hint="Leave empty for the agent's own model." />
    </div>
    <${Field} label="Message" name="message" as="textarea" rows=${3} required=${true} hint="What the agent is asked at each fire." />
  <//>`;
}
