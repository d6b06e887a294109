import { z } from "@muster/plugin";
import { CATEGORY_PATTERN } from "../services/skill-store.ts";

export const importSkillBody = z
  .strictObject({
    name: z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 _-]*$/, "must be letters, digits, spaces, _ or - (it becomes the file name)"),
    category: z.string().regex(CATEGORY_PATTERN, "must be 1-64 lower-case letters, digits, _ or - (it becomes a directory name)"),
    content: z.string().min(1).nullable().optional().describe("Raw markdown; exactly one of content and url"),
    url: z.string().max(2048).nullable().optional().describe("http(s) URL to fetch; exactly one of content and url"),
    overwrite: z.boolean().default(false).describe("Replace an existing skill of the same name (409 otherwise)"),
  })
  .refine((b) => (b.content ? 1 : 0) + (b.url ? 1 : 0) === 1, { message: "send exactly one of content and url", path: ["content"] })
  .refine((b) => !b.content || !b.content.includes("\u0000"), { message: "must be text (no NUL bytes)", path: ["content"] });

export const skillSchema = z.object({ name: z.string(), category: z.string(), path: z.string(), size: z.number().int() });

export const listSkillsResponse = z.object({
  ok: z.literal(true),
  categories: z.array(z.object({ category: z.string(), skills: z.array(z.string()) })),
});
