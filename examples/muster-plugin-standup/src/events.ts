import type { StandupNoteRow } from "./tokens.ts";

/** The plugin's events, merged into the host's typed map so publish and subscribe check them. */
export interface StandupEvents {
  /** An agent posted (or replaced) its stand-up for a day; public, so the console panel refreshes on it. */
  "standup.note.posted": StandupNoteRow;
}

declare module "@muster/plugin" {
  interface MusterEvents extends StandupEvents {}
}
