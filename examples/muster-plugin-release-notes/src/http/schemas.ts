import { z } from "@muster/plugin";

export const noteBody = z.strictObject({
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "a version such as 1.2.0"),
  text: z.string().min(1).max(2000),
});
export const noteParams = z.strictObject({ id: z.coerce.number().int().positive() });
export const listQuery = z.strictObject({ version: z.string().max(50).optional() });

export const note = z.object({ id: z.number(), version: z.string(), text: z.string(), author: z.string().nullable(), createdAt: z.string() });
export const noteResponse = z.object({ ok: z.literal(true), note });
export const listResponse = z.object({ ok: z.literal(true), title: z.string(), notes: z.array(note) });
