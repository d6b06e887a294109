// What the human writes: a new conversation (one agent, or a party of 2-8 with 1-3 rounds) or
// the next message of the open one (its agents and mode are the session's).
import { html, useState, Form, Field } from "@muster/console";
import type { ChatBody } from "./chat-stream.ts";

const ROUNDS = [
  { value: "1", label: "1 round" },
  { value: "2", label: "2 rounds" },
  { value: "3", label: "3 rounds" },
];

const text = (fields: FormData, name: string) => String(fields.get(name) ?? "");
const agentList = (value: string) => value.split(/[\s,]+/).filter(Boolean);

export function NewConversation({ send, knownAgents }: { send: (body: ChatBody) => Promise<void>; knownAgents: readonly string[] }) {
  const [mode, setMode] = useState<"single" | "party">("single");
  const known = knownAgents.length ? `Known agents: ${knownAgents.join(", ")}.` : "An agent id, as the gateway knows it.";
  const submit = (fields: FormData) =>
    send(
      mode === "party"
        ? { mode: "party", agentIds: agentList(text(fields, "agentIds")), rounds: Number(text(fields, "rounds") || "1"), message: text(fields, "message") }
        : { agentId: text(fields, "agentId").trim(), message: text(fields, "message") },
    );
  return html`<${Form} label="Start a conversation" submitLabel=${mode === "party" ? "Start party" : "Send"} onSubmit=${submit}>
    <${Field} label="With" name="mode" as="select" value=${mode} onInput=${(value: string) => setMode(value === "party" ? "party" : "single")}
      options=${[{ value: "single", label: "One agent" }, { value: "party", label: "A party of agents" }]} />
    ${mode === "party"
      ? html`<${Field} label="Agents" name="agentIds" required hint=${`2 to 8 agent ids, separated by commas; they speak in this order. ${known}`} autocomplete="off" />
          <${Field} label="Rounds" name="rounds" as="select" options=${ROUNDS} />`
      : html`<${Field} label="Agent" name="agentId" required hint=${known} autocomplete="off" />`}
    <${Field} label="Message" name="message" as="textarea" rows=${3} required />
  <//>`;
}

export function FollowUp({ send, party }: { send: (message: string, rounds: number) => Promise<void>; party: boolean }) {
  return html`<${Form} label="Reply" submitLabel="Send" class="chat-follow-up"
    onSubmit=${(fields: FormData) => send(text(fields, "message"), Number(text(fields, "rounds") || "1"))}>
    <${Field} label="Message" name="message" as="textarea" rows=${3} required />
    ${party ? html`<${Field} label="Rounds" name="rounds" as="select" options=${ROUNDS} />` : null}
  <//>`;
}
