import { z, schemas } from "@muster/plugin";
import { CATEGORIES } from "../domain/categories.ts";

export const searchQuery = z.strictObject({
  q: z.string().max(200).describe("At least 2 letters or digits; words of 3+ letters match as prefixes, 4+ tolerate typos; the first 12 distinct words are searched"),
  category: z.enum(CATEGORIES).optional().describe("Only files of this category (derived from the path)"),
  limit: schemas.limit(20, 100),
});

const searchResult = z.object({
  path: z.string().describe("Workspace-relative path"),
  score: z.number().describe("Relevance, higher is better"),
  excerpt: z.string().describe("Up to 240 characters of the file around the first match"),
  title: z.string(),
  category: z.enum(CATEGORIES),
});

const refreshReport = z.object({
  kind: z.enum(["build", "load", "reindex"]),
  read: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  truncated: z.boolean(),
  durationMs: z.number(),
  phases: z.object({ walkMs: z.number(), readMs: z.number(), indexMs: z.number() }),
  builder: z.enum(["main-thread", "child-process"]).describe("Where the files were read and indexed: in a child process for a full build of search.builderProcessMinFiles files or more, else on the server's thread"),
  finishedAt: z.string(),
});

export const searchStats = z.object({
  totalFiles: z.number().int(),
  indexedAt: z.string().nullable(),
  state: z.enum(["loading", "ready"]),
  indexing: z.boolean().describe("True while a build, re-index or start-up refresh runs; searches answer from the index as it is"),
  lastRefresh: refreshReport.nullable(),
  skipped: z.object({ tooLarge: z.number().int(), binary: z.number().int(), invalidUtf8: z.number().int(), symlinksOutside: z.number().int() }),
  malformed: z.object({ count: z.number().int(), files: z.array(z.object({ path: z.string(), problem: z.string() })) }),
  eventsApplied: z.number().int(),
  lastSave: z.object({ durationMs: z.number(), bytes: z.number().int(), savedAt: z.string() }).nullable(),
});

export const searchResponse = z.object({
  ok: z.literal(true),
  query: z.string(),
  count: z.number().int().describe("Number of results returned"),
  total: z.number().int().describe("Number of matching files before `limit`"),
  results: z.array(searchResult),
  stats: searchStats,
});

/** The spec's POST takes no body; an empty object is tolerated, any field is refused. */
export const reindexBody = z.strictObject({}).optional();

export const reindexResponse = z.object({
  ok: z.literal(true),
  filesIndexed: z.number().int(),
  duration: z.number().describe("Milliseconds"),
});
