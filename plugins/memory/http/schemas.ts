import { z, schemas } from "@muster/plugin";
import { DOC_CATEGORIES } from "../services/doc-category.ts";

const textFileFields = {
  name: z.string(),
  path: z.string().describe("Workspace-relative path"),
  size: z.number().int(),
  wordCount: z.number().int(),
  content: z.string(),
  modifiedAt: z.string(),
  truncated: z.boolean().describe("True when content holds only the first part of the file"),
  binary: z.boolean().describe("True for a binary file with a text name; content is then empty"),
};

export const dailyMemorySchema = z.object({ ...textFileFields, date: z.string() });

export const longTermMemorySchema = z.object({
  ok: z.literal(true),
  path: z.string(),
  content: z.string(),
  wordCount: z.number().int(),
  modifiedAt: z.string(),
  size: z.number().int(),
  truncated: z.boolean(),
});

export const documentSchema = z.object({ ...textFileFields, category: z.enum(DOC_CATEGORIES) });

export const listMemoryQuery = z.strictObject({ limit: schemas.limit(30, 366) });

export const listDocsQuery = z.strictObject({
  limit: schemas.limit(100, 200),
  category: z.enum(DOC_CATEGORIES).optional(),
  path: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("One document by its workspace-relative path: an array of it alone (content up to the single-file cap), or empty when the scan would not list it"),
});

const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  tier: z.number().int().nullable(),
  role: z.string().nullable(),
  model: z.string().nullable(),
  squad: z.string().nullable(),
  reportsTo: z.string().nullable(),
  manages: z.array(z.string()),
  skills: z.array(z.string()),
});

export const orgStructureResponse = z.object({
  ok: z.literal(true),
  path: z.string(),
  modifiedAt: z.string(),
  org: z.object({
    name: z.string().nullable(),
    owner: z.string().nullable(),
    ownerRole: z.string().nullable(),
    tiers: z.array(z.object({ tier: z.number().int(), name: z.string() })),
    agents: z.array(agentSchema),
    squads: z.array(
      z.object({ id: z.string(), name: z.string(), lead: z.string().nullable(), chief: z.string().nullable(), members: z.array(z.string()), domain: z.string().nullable() }),
    ),
    escalation: z.array(z.object({ from: z.string(), to: z.string(), triggers: z.array(z.string()) })),
  }),
  warnings: z.array(z.string()).describe("Fields of the wrong type, read as null or empty"),
});

export const docsIndexQuery = z.strictObject({
  limit: schemas.limit(1000, 10_000),
  category: z.enum(DOC_CATEGORIES).optional(),
});

export const docsIndexResponse = z.object({
  ok: z.literal(true),
  total: z.number().int().describe("Documents that match (all, or the category's), before the limit"),
  counts: z.record(z.enum(DOC_CATEGORIES), z.number().int()).describe("Documents per category over the whole workspace"),
  documents: z.array(
    z.object({ name: z.string(), path: z.string().describe("Workspace-relative path"), category: z.enum(DOC_CATEGORIES), size: z.number().int(), modifiedAt: z.string() }),
  ),
});
