import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parseDocument, type Document } from "yaml";
import { agentsErrors } from "../errors.ts";

/** The organisation file (reference §6.2), relative to the workspace. */
export const ORG_FILE = "company/org_structure.yaml";

/** An agent's entry as written under `org.agents.<id>` (reference §6.2 keys). */
export interface OrgEntry {
  id: string;
  name: string;
  tier: number;
  role: string;
  model: string;
  emoji?: string | null;
  squad: string | null;
  reports_to: string | null;
  manages: string[];
  skills: string[];
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The raw organisation file as an editable YAML document (comments kept); an empty one when absent. */
export async function readOrgDocument(path: string): Promise<Document> {
  const { doc, values } = parseOrgText(await readOrgText(path));
  if (values.org === undefined) doc.set("org", doc.createNode({ agents: {} }));
  return doc;
}

async function readOrgText(path: string): Promise<string> {
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
}

/** Parses and checks the file's text (an empty text is an organisation of no agents). */
function parseOrgText(text: string): { doc: Document; values: Record<string, unknown> } {
  const doc = parseDocument(text || "org:\n  agents: {}\n", { uniqueKeys: true });
  if (doc.errors.length > 0) throw agentsErrors.AGENT_ORG_FILE_INVALID({ reason: doc.errors[0]!.message.split("\n")[0]! });
  const root: unknown = doc.toJS();
  if (!isMap(root) || (root.org !== undefined && !isMap(root.org))) throw agentsErrors.AGENT_ORG_FILE_INVALID({ reason: "its root must be a mapping with an `org` mapping" });
  return { doc, values: root };
}

/**
 * The organisation file's content as plain values, for reading only (never mutate it). The
 * last text's parse is kept: a start reads the same file for the owner (before any plugin
 * runs) and for the emojis of the first sync, and parsing it cold cost ~40 ms each time.
 */
export function orgValues(text: string): Record<string, unknown> {
  if (lastParsed?.text !== text) {
    try {
      lastParsed = { text, values: parseOrgText(text).values };
    } catch (error) {
      lastParsed = { text, error };
    }
  }
  if ("error" in lastParsed) throw lastParsed.error;
  return lastParsed.values;
}
let lastParsed: { text: string; values: Record<string, unknown> } | { text: string; error: unknown } | undefined;

/** The organisation file at `path` as plain values (orgValues); an organisation of no agents when absent. */
export async function readOrgValues(path: string): Promise<Record<string, unknown>> {
  return orgValues(await readOrgText(path));
}

/** Ids listed under `org.agents` (a mapping keyed by id, or a list of items with `id`). */
export function orgAgentIds(doc: Document): Set<string> {
  const agents: unknown = (doc.toJS() as { org?: { agents?: unknown } }).org?.agents;
  if (Array.isArray(agents)) return new Set(agents.flatMap((a) => (isMap(a) && a.id !== undefined ? [String(a.id)] : [])));
  return new Set(isMap(agents) ? Object.keys(agents) : []);
}

/** The agent ids of the organisation file at `path`, or null when there is none (`muster doctor`). */
export async function organisationAgentIds(path: string): Promise<string[] | null> {
  if (!existsSync(path)) return null;
  return [...orgAgentIds(await readOrgDocument(path))];
}

/** Agent id → emoji as the file writes them (the memory plugin's parser does not read emojis). */
export function orgEmojis(values: Record<string, unknown>): Map<string, string> {
  const agents: unknown = (values as { org?: { agents?: unknown } }).org?.agents;
  const entries: [string, unknown][] = Array.isArray(agents)
    ? agents.flatMap((a) => (isMap(a) && a.id !== undefined ? [[String(a.id), a] as [string, unknown]] : []))
    : isMap(agents)
      ? Object.entries(agents)
      : [];
  return new Map(entries.flatMap(([id, a]) => (isMap(a) && typeof a.emoji === "string" ? [[id, a.emoji] as [string, string]] : [])));
}

/** Adds agents (and, for a pack, its squad) to the document; returns the new text. */
export function addToOrg(doc: Document, entries: OrgEntry[], squad?: { id: string; name: string; chief: string | null; domain: string | null }): string {
  const agents: unknown = (doc.toJS() as { org?: { agents?: unknown } }).org?.agents;
  if (Array.isArray(agents)) for (const e of entries) doc.addIn(["org", "agents"], doc.createNode(e));
  else {
    if (!isMap(agents)) doc.setIn(["org", "agents"], doc.createNode({}));
    for (const e of entries) doc.setIn(["org", "agents", e.id], doc.createNode(e));
  }
  const squads: unknown = (doc.toJS() as { org?: { squads?: unknown } }).org?.squads;
  if (squad && !(isMap(squads) && squads[squad.id] !== undefined)) {
    if (!isMap(squads)) doc.setIn(["org", "squads"], doc.createNode({}));
    const members = entries.map((e) => e.id).filter((id) => id !== squad.chief);
    doc.setIn(["org", "squads", squad.id], doc.createNode({ name: squad.name, chief: squad.chief, lead: null, domain: squad.domain, members }));
  } else if (isMap(squads)) {
    // A single agent joining an existing squad is listed among its members.
    for (const e of entries) {
      const s = e.squad === null ? undefined : squads[e.squad];
      if (isMap(s) && Array.isArray(s.members) && !s.members.includes(e.id)) doc.addIn(["org", "squads", e.squad!, "members"], e.id);
    }
  }
  return doc.toString({ lineWidth: 120 });
}
