import { z } from "@muster/plugin";

const text = z.string().trim().min(1).max(2000);

export const noteBody = z.strictObject({
  yesterday: text,
  today: text,
  /** Leave out (or empty) when nothing blocks you. */
  blockers: z.string().trim().max(2000).optional(),
});

export const dayQuery = z.strictObject({
  /** `YYYY-MM-DD` (UTC); today when left out. */
  day: z.iso.date().optional(),
});

const note = z.object({
  id: z.number().int(),
  agent: z.string(),
  day: z.string(),
  yesterday: z.string(),
  today: z.string(),
  blockers: z.string(),
  postedAt: z.string(),
});

export const noteResponse = z.object({ ok: z.literal(true), note });
export const dayResponse = z.object({ ok: z.literal(true), day: z.string(), notes: z.array(note) });
