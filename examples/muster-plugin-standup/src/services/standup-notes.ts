import { defineService, hostTokens, type Database, type EventBus } from "@muster/plugin";
import { StandupNote } from "../entities/standup-note.ts";
import { STANDUP_NOTES, utcDay, type StandupInput, type StandupNoteRow, type StandupNotes } from "../tokens.ts";
import "../events.ts";

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(StandupNote.meta.properties) as (keyof StandupNoteRow)[];

/** Stand-up notes in Muster's database, through MikroORM's query builder (plain rows, no entities). */
class DatabaseStandupNotes implements StandupNotes {
  private readonly deps: { db: Database; events: EventBus };

  constructor(deps: { db: Database; events: EventBus }) {
    this.deps = deps;
  }

  async post(agent: string, input: StandupInput): Promise<StandupNoteRow> {
    const note = { agent, day: utcDay(), yesterday: input.yesterday, today: input.today, blockers: input.blockers ?? "", postedAt: new Date().toISOString() };
    // One statement (INSERT … ON CONFLICT DO UPDATE): two posts of the same agent on the same
    // day cannot both insert, whatever the driver does between awaits.
    await this.query().insert(note).onConflict(["day", "agent"]).merge(["yesterday", "today", "blockers", "postedAt"]).execute();
    const [posted] = await this.query().select(FIELDS).where({ day: note.day, agent }).execute<StandupNoteRow[]>("all", false);
    this.deps.events.publish("standup.note.posted", posted!, { public: true });
    return posted!;
  }

  list(day: string): Promise<StandupNoteRow[]> {
    return this.query().select(FIELDS).where({ day }).orderBy({ agent: "asc" }).execute<StandupNoteRow[]>("all", false);
  }

  private query() {
    return this.deps.db.em().createQueryBuilder(StandupNote);
  }
}

export const standupNotesService = defineService({
  token: STANDUP_NOTES,
  deps: { db: hostTokens.db, events: hostTokens.events },
  create: (deps) => new DatabaseStandupNotes(deps),
});
