import { token } from "@muster/plugin";
import type { CouncilOutcome, CouncilPosition, CouncilSessionRecord, CouncilStatus, CouncilVote } from "./services/council-record.ts";

export type { CouncilOutcome, CouncilPosition, CouncilSessionRecord, CouncilStatus, CouncilVote };

export interface NewCouncilSession {
  topic: string;
  /** 2..7 known agents; the first moderates. */
  agents: string[];
  rounds: number;
}

/** Council sessions: start one (it deliberates in the background), list, read. */
export interface Council {
  /**
   * Takes the council's rate-limit slot (429), checks the agents (404 `AGENT_NOT_FOUND`), the
   * gateway (503) and the agents' registration with it (409 `AGENT_NOT_REGISTERED`), stores the session `running` and starts the deliberation, which
   * holds the slot until it ends.
   */
  start(input: NewCouncilSession): Promise<CouncilSessionRecord>;
  list(limit: number): Promise<CouncilSessionRecord[]>;
  get(id: string): Promise<CouncilSessionRecord>;
}

/** The council service. Depend on the `council` plugin to use it. */
export const COUNCIL = token<Council>("council.service");
