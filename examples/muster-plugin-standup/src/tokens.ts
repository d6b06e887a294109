import { token, type EntityRow } from "@muster/plugin";
import type { StandupNote } from "./entities/standup-note.ts";

/** A note as the API returns it: the entity's row, derived from the one declaration. */
export type StandupNoteRow = EntityRow<typeof StandupNote>;

export interface StandupInput {
  yesterday: string;
  today: string;
  blockers?: string | undefined;
}

/** The day's stand-up notes of the crew. */
export interface StandupNotes {
  /** Posts (or replaces) `agent`'s note for today (UTC). */
  post(agent: string, input: StandupInput): Promise<StandupNoteRow>;
  /** The notes of one day (`YYYY-MM-DD`), by agent. */
  list(day: string): Promise<StandupNoteRow[]>;
}

export const STANDUP_NOTES = token<StandupNotes>("standup.notes");

/** Today as `YYYY-MM-DD` in UTC: stand-ups are kept per UTC day. */
export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);
