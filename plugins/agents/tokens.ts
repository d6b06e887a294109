import { token } from "@muster/plugin";

/** An agent's tool restrictions, as written to OpenClaw's agent configuration. */
export interface AgentTools {
  allow: string[];
  deny: string[];
}

export type SandboxMode = "off" | "container";

/** The spec's Agent record (camelCase) plus the runtime fields of DESIGN §14.5. */
export interface AgentRecord {
  id: string;
  name: string;
  role: string | null;
  tier: number | null;
  squad: string | null;
  model: string | null;
  status: string;
  emoji: string | null;
  reportsTo: string | null;
  skills: string[];
  tools: AgentTools;
  sandbox: SandboxMode;
  createdAt: string;
  updatedAt: string;
}

export type HealthState = "active" | "idle" | "stalled" | "stuck" | "offline";

/** The spec's Agent health entry. */
export interface AgentHealthEntry {
  id: string;
  name: string;
  state: HealthState;
  /** Newest activity over the agent's gateway sessions; null when it has none. */
  lastActivityMs: number | null;
  idleMinutes: number | null;
  model: string | null;
  sessionCount: number;
  /**
   * Whether the gateway's `agents.list` names the agent (an addition to the spec's entry). An
   * agent of the organisation file that the gateway does not know is `false`: its state reads
   * `idle` but nothing can run on it until it is registered (`POST /api/agents/register-missing`).
   * Null while the gateway's list has never been read (the gateway never connected).
   */
  registered: boolean | null;
  /** With several gateways (DESIGN §16): the gateway the agent is on; its link's state decides `offline`. */
  gateway?: string;
}

/** Who hears about an agent's or a task's trouble next (DESIGN §14.7). */
export interface EscalationTarget {
  /** The chain level the agent sits at: `execution`, `management`, `executive` (null if unknown). */
  fromLevel: string | null;
  /** The next level: `management`, `executive` or `owner`. */
  toLevel: string;
  /** The agent to notify, or null when the next level is the owner (a human). */
  agentId: string | null;
  /** The owner's name from the organisation file when `agentId` is null. */
  owner: string | null;
  /** Reason categories the organisation file lists for this step (`blocker`, …). */
  triggers: string[];
}

/**
 * The crew capability (DESIGN §14): who the agents are, what the organisation file says about
 * them, and who sits above whom. The agents plugin parses the organisation file (through the
 * memory plugin's parser) once per change and mirrors it into its table; chat, council,
 * dispatch and crons ask this one view instead of reading the file or agents.list themselves.
 */
export interface Crew {
  /** The configured owner: the default approver and the top of the escalation chain (`ctx.host.owner`). */
  readonly owner: string;
  /** The other humans who may decide approvals (`ctx.host.approvers`). */
  readonly approvers: readonly string[];
  /**
   * True when the id is in the organisation file or the gateway's agents.list. A miss re-reads
   * the organisation file when it changed since the last read (an agent added a moment ago) and
   * agents.list at most every 2 s; never waits for a gateway that is not connected.
   */
  isKnown(id: string): Promise<boolean>;
  /** Throws 404 `AGENT_NOT_FOUND` naming the first unknown id, whether or not the gateway is up. */
  assertKnown(ids: readonly string[]): Promise<void>;
  /** The record, or null when the id is not in the organisation file (the agents table). */
  get(id: string): Promise<AgentRecord | null>;
  list(): Promise<AgentRecord[]>;
  /** The agent's role from the organisation file, or null (not in it, or no role). */
  role(id: string): Promise<string | null>;
  /**
   * Whether the gateway's agents.list names the agent: the cached list, re-read first (at most
   * every 2 s) when it does not. Null while the list was never read (gateway never connected).
   */
  registeredWithGateway(id: string): Promise<boolean | null>;
  /**
   * Throws 409 `AGENT_NOT_REGISTERED` (with the fix) naming the first id the gateway's
   * agents.list does not name; nothing while the list was never read (the turn then says what
   * the gateway thinks). Call after {@link assertKnown} and the gateway's readiness.
   */
  assertRegistered(ids: readonly string[]): Promise<void>;
  /** From the cached sessions snapshot; never a gateway call. Null for an agent that is not known. */
  health(id: string): Promise<AgentHealthEntry | null>;
  /**
   * The model a turn on `sessionKey` ran on, for cost events: the cached sessions snapshot's row
   * (`modelProvider/model`), else the agent record's configured model, else the gateway's
   * agents.list primary model; null when none is known. Never a gateway call.
   */
  modelOf(agentId: string, sessionKey?: string): Promise<string | null>;
  /** The next level of the escalation chain above this agent; null when the agent is not in the organisation file. */
  escalationFor(id: string): Promise<EscalationTarget | null>;
}

/** The crew capability of the `agents` plugin. Depend (or optionally depend) on `agents` to use it. */
export const CREW = token<Crew>("agents.crew");
