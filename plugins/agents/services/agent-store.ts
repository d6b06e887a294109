import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import type { OrgStructure } from "../../memory/tokens.ts";

type OrgAgent = OrgStructure["agents"][number];
import { Agent, type AgentRow } from "../entities/agent.ts";
import type { AgentRecord, AgentTools, SandboxMode } from "../tokens.ts";

const parseList = (text: string): string[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
};

export const toRecord = (row: AgentRow): AgentRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  tier: row.tier,
  squad: row.squad,
  model: row.model,
  status: row.status,
  emoji: row.emoji,
  reportsTo: row.reportsTo,
  skills: parseList(row.skills),
  tools: { allow: parseList(row.toolsAllow), deny: parseList(row.toolsDeny) },
  sandbox: row.sandbox,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** What the organisation file says about one agent (the columns it owns). */
export interface OrgColumns {
  id: string;
  name: string;
  role: string | null;
  tier: number | null;
  squad: string | null;
  model: string | null;
  reportsTo: string | null;
  skills: string[];
}

export const orgColumns = (a: OrgAgent): OrgColumns => ({
  id: a.id,
  name: a.name,
  role: a.role,
  tier: a.tier,
  squad: a.squad,
  model: a.model,
  reportsTo: a.reportsTo,
  skills: a.skills,
});

/** By id; text and number columns only, so rows need no mapping. */
const agents = defineStore(Agent, { orderBy: { id: "asc" }, mapRows: false });

export interface SyncResult {
  added: string[];
  removed: string[];
  updated: string[];
}

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
const SELECT_ALL = "SELECT * FROM agents_agents";
const INSERT_AGENT = `INSERT INTO agents_agents (id, name, role, tier, squad, model, emoji, "reportsTo", skills, "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const UPDATE_AGENT = `UPDATE agents_agents SET name = ?, role = ?, tier = ?, squad = ?, model = ?, emoji = ?, "reportsTo" = ?, skills = ?, "updatedAt" = ? WHERE id = ?`;
const CLAIM_ESCALATION = `INSERT INTO agents_escalations ("agentId", "lastActivityMs", "escalatedAt") VALUES (?, ?, ?)
  ON CONFLICT ("agentId") DO UPDATE SET "lastActivityMs" = excluded."lastActivityMs", "escalatedAt" = excluded."escalatedAt"
  WHERE agents_escalations."lastActivityMs" <> excluded."lastActivityMs"`;

/**
 * `agents_agents`: reads and plain updates over the store kit, on SQLite and PostgreSQL. The
 * sync from the organisation file is one atomic step (`atomically`: a read, then inserts,
 * updates and deletes), so a reader never sees half an organisation; on SQLite it runs
 * synchronously over statements prepared once, as fast as the raw transaction it replaces
 * (it is on the start-up path).
 */
export class AgentStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof Agent>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = agents.on(db);
  }

  async list(): Promise<AgentRecord[]> {
    return (await this.rows.list()).map(toRecord);
  }

  async get(id: string): Promise<AgentRecord | null> {
    const row = await this.rows.get(id);
    return row ? toRecord(row) : null;
  }

  /** Mirrors the organisation file: inserts new agents, updates changed ones, deletes the ones it no longer lists. */
  sync(agents: OrgColumns[], emojis: ReadonlyMap<string, string>, now: string): Promise<SyncResult> {
    return atomically(this.db(), function* (tx) {
      const result: SyncResult = { added: [], removed: [], updated: [] };
      const existing = new Map((yield* tx.all<AgentRow>(SELECT_ALL)).map((r) => [r.id, r]));
      const seen = new Set<string>();
      for (const a of agents) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        const skills = JSON.stringify(a.skills);
        const old = existing.get(a.id);
        const emoji = emojis.get(a.id) ?? old?.emoji ?? null;
        if (!old) {
          yield* tx.run(INSERT_AGENT, [a.id, a.name, a.role, a.tier, a.squad, a.model, emoji, a.reportsTo, skills, now, now]);
          result.added.push(a.id);
          continue;
        }
        const same =
          old.name === a.name && old.role === a.role && old.tier === a.tier && old.squad === a.squad && old.model === a.model && old.reportsTo === a.reportsTo && old.skills === skills && old.emoji === emoji;
        if (same) continue;
        yield* tx.run(UPDATE_AGENT, [a.name, a.role, a.tier, a.squad, a.model, emoji, a.reportsTo, skills, now, a.id]);
        result.updated.push(a.id);
      }
      for (const id of existing.keys()) {
        if (seen.has(id)) continue;
        yield* tx.run("DELETE FROM agents_agents WHERE id = ?", [id]);
        result.removed.push(id);
      }
      return result;
    });
  }

  /** Records an approved tools/sandbox change (after OpenClaw accepted it). */
  setConfiguration(id: string, tools: AgentTools, sandbox: SandboxMode, now: string): Promise<boolean> {
    return this.rows.update(id, { toolsAllow: JSON.stringify(tools.allow), toolsDeny: JSON.stringify(tools.deny), sandbox, updatedAt: now });
  }

  /**
   * Claims the escalation of one stuck episode: true only the first time for this agent and
   * `lastActivityMs`. One conditional statement (an upsert whose update is conditional), so two
   * checks (or a check after a restart) cannot both notify for the same episode.
   */
  async claimEscalation(agentId: string, lastActivityMs: number, now: string): Promise<boolean> {
    return (await atomically(this.db(), (tx) => tx.run(CLAIM_ESCALATION, [agentId, lastActivityMs, now]))).changes === 1;
  }
}
