// Parses `company/org_structure.yaml` (reference §6.2 format) into a stable shape. Fields of
// the wrong type are reported in `warnings` and read as null/empty; a file that is not
// YAML, or whose root is not a mapping, is refused with the parser's position.
import { parseDocument } from "yaml";
import { isCircular } from "@muster/plugin";
import { memoryErrors } from "../errors.ts";

export interface OrgAgent {
  id: string;
  name: string;
  tier: number | null;
  role: string | null;
  model: string | null;
  squad: string | null;
  reportsTo: string | null;
  manages: string[];
  skills: string[];
}

export interface OrgSquad {
  id: string;
  name: string;
  lead: string | null;
  chief: string | null;
  members: string[];
  domain: string | null;
}

export interface OrgTier {
  tier: number;
  name: string;
}

export interface EscalationStep {
  from: string;
  to: string;
  triggers: string[];
}

export interface OrgStructure {
  name: string | null;
  owner: string | null;
  ownerRole: string | null;
  tiers: OrgTier[];
  agents: OrgAgent[];
  squads: OrgSquad[];
  escalation: EscalationStep[];
}

/** The spec's escalation chain, returned when the file does not define `escalation_chain`. */
export const DEFAULT_ESCALATION: EscalationStep[] = [
  { from: "execution", to: "management", triggers: ["blocker", "conflict", "unclear_requirements"] },
  { from: "management", to: "executive", triggers: ["architecture_decision", "resource_conflict", "deadline_risk"] },
  { from: "executive", to: "owner", triggers: ["budget", "strategy", "external_communication", "deploy_approval"] },
];

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);


class Reader {
  readonly warnings: string[] = [];

  str(value: unknown, path: string): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    this.warnings.push(`${path}: expected a string`);
    return null;
  }

  int(value: unknown, path: string): number | null {
    if (value === undefined || value === null) return null;
    const n = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n === "number" && Number.isInteger(n)) return n;
    this.warnings.push(`${path}: expected an integer`);
    return null;
  }

  strings(value: unknown, path: string): string[] {
    if (value === undefined || value === null) return [];
    if (typeof value === "string") return [value];
    if (!Array.isArray(value)) {
      this.warnings.push(`${path}: expected a list`);
      return [];
    }
    return value.flatMap((item, i) => {
      const s = this.str(item, `${path}.${i}`);
      return s === null ? [] : [s];
    });
  }

  /** A mapping keyed by id, or a list of items carrying `id`. */
  keyed(value: unknown, path: string): [string, Json][] {
    if (value === undefined || value === null) return [];
    const pairs: [string, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [isMap(item) && item.id !== undefined ? String(item.id) : `#${i}`, item])
      : isMap(value)
        ? Object.entries(value)
        : (this.warnings.push(`${path}: expected a mapping`), []);
    return pairs.flatMap(([key, item]) => {
      if (isMap(item)) return [[key, item] as [string, Json]];
      this.warnings.push(`${path}.${key}: expected a mapping`);
      return [];
    });
  }
}

function readTiers(r: Reader, value: unknown): OrgTier[] {
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(isMap(v) ? v.tier ?? i : i), isMap(v) ? v.name : v] as const)
    : isMap(value)
      ? Object.entries(value)
      : value === undefined || value === null
        ? []
        : (r.warnings.push("org.tiers: expected a mapping"), []);
  const tiers: OrgTier[] = [];
  for (const [key, raw] of entries) {
    const tier = r.int(key, `org.tiers.${key}`);
    const name = r.str(isMap(raw) ? raw.name : raw, `org.tiers.${key}`);
    if (tier !== null && name !== null) tiers.push({ tier, name });
  }
  return tiers.sort((a, b) => a.tier - b.tier);
}

function readEscalation(r: Reader, value: unknown): EscalationStep[] {
  if (value === undefined || value === null) return DEFAULT_ESCALATION;
  const items: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : isMap(value)
      ? Object.entries(value).map(([from, v]) => [from, isMap(v) ? { from, ...v } : v])
      : (r.warnings.push("org.escalation_chain: expected a list"), []);
  const steps: EscalationStep[] = [];
  for (const [key, raw] of items) {
    const path = `org.escalation_chain.${key}`;
    if (!isMap(raw)) {
      r.warnings.push(`${path}: expected a mapping`);
      continue;
    }
    const from = r.str(raw.from, `${path}.from`);
    const to = r.str(raw.to, `${path}.to`);
    if (from === null || to === null) {
      r.warnings.push(`${path}: needs from and to`);
      continue;
    }
    steps.push({ from, to, triggers: r.strings(raw.triggers ?? raw.reasons ?? raw.when, `${path}.triggers`) });
  }
  return steps;
}

/**
 * Parses the organisation file's text. Throws 422 `ORG_FILE_INVALID` with `details.line`
 * and `details.column` when the YAML does not parse.
 */
export function parseOrgStructure(text: string): { org: OrgStructure; warnings: string[] } {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const where = at ? ` at line ${at.line}, column ${at.col}` : "";
    throw memoryErrors.ORG_FILE_INVALID(
      { reason: `${error.code}${where}: ${error.message.split("\n")[0]}` },
      { details: { code: error.code, line: at?.line ?? null, column: at?.col ?? null } },
    );
  }
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw memoryErrors.ORG_FILE_INVALID({ reason: (cause as Error).message.split("\n")[0] }, { details: { code: "YAML_TO_JS" } });
  }
  if (isCircular(root)) throw memoryErrors.ORG_FILE_INVALID({ reason: "an alias refers to its own ancestor" }, { details: { code: "CIRCULAR_ALIAS" } });
  if (!isMap(root)) throw memoryErrors.ORG_FILE_INVALID({ reason: "the document must be a mapping with an `org` key" }, { details: { code: "NOT_A_MAPPING" } });
  // The reference writes everything under `org:`; a file without it is read from its root.
  const source = root.org === undefined ? root : root.org;
  if (!isMap(source)) throw memoryErrors.ORG_FILE_INVALID({ reason: "`org` must be a mapping" }, { details: { code: "NOT_A_MAPPING" } });

  const r = new Reader();
  const agents: OrgAgent[] = r.keyed(source.agents, "org.agents").map(([key, a]) => {
    const path = `org.agents.${key}`;
    const id = r.str(a.id, `${path}.id`) ?? key;
    return {
      id,
      name: r.str(a.name ?? a.display_name ?? a.displayName, `${path}.name`) ?? id,
      tier: r.int(a.tier, `${path}.tier`),
      role: r.str(a.role, `${path}.role`),
      model: r.str(a.model, `${path}.model`),
      squad: r.str(a.squad, `${path}.squad`),
      reportsTo: r.str(a.reports_to ?? a.reportsTo, `${path}.reports_to`),
      manages: r.strings(a.manages, `${path}.manages`),
      skills: r.strings(a.skills, `${path}.skills`),
    };
  });
  const squads: OrgSquad[] = r.keyed(source.squads, "org.squads").map(([key, s]) => {
    const path = `org.squads.${key}`;
    const id = r.str(s.id, `${path}.id`) ?? key;
    const members = s.members === undefined ? agents.filter((a) => a.squad === id).map((a) => a.id) : r.strings(s.members, `${path}.members`);
    return {
      id,
      name: r.str(s.name, `${path}.name`) ?? id,
      lead: r.str(s.lead, `${path}.lead`),
      chief: r.str(s.chief, `${path}.chief`),
      members,
      domain: r.str(s.domain, `${path}.domain`),
    };
  });
  const org: OrgStructure = {
    name: r.str(source.name, "org.name"),
    owner: r.str(source.owner, "org.owner"),
    ownerRole: r.str(source.owner_role ?? source.ownerRole, "org.owner_role"),
    tiers: readTiers(r, source.tiers),
    agents,
    squads,
    escalation: readEscalation(r, source.escalation_chain ?? source.escalation ?? root.escalation_chain),
  };
  return { org, warnings: [...r.warnings, ...doc.warnings.map((w) => w.message.split("\n")[0]!)] };
}
