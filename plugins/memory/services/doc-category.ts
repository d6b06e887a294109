/** The categories of the spec's Workspace document. */
export const DOC_CATEGORIES = ["Journal", "Insights", "Transcription", "ADR", "Report", "Other"] as const;
export type DocCategory = (typeof DOC_CATEGORIES)[number];

/**
 * Category from the workspace-relative path, first match wins (reference §6.5 order).
 * Unlike the reference, this matches whole words of the path rather than substrings, so
 * `roadmap.md` is not an ADR and `supported.md` is not a report.
 */
export function docCategory(relativePath: string): DocCategory {
  const words = relativePath.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const has = (test: (w: string) => boolean) => words.some(test);
  if (has((w) => w === "memory" || w === "journal")) return "Journal";
  if (has((w) => w.startsWith("knowledge") || w.startsWith("insight"))) return "Insights";
  if (has((w) => w.startsWith("transcri"))) return "Transcription";
  if (has((w) => /^adrs?\d*$/.test(w) || w.startsWith("decision"))) return "ADR";
  if (has((w) => w.startsWith("report"))) return "Report";
  return "Other";
}
