import { z } from "@muster/plugin";

/** The plugin's section of `muster.config.json`, with its defaults. */
export const releaseNotesConfig = z.strictObject({
  /** Shown as the heading of the list. */
  title: z.string().min(1).max(200).default("Release notes"),
  /** Notes kept at most; adding one more is refused with RELEASE_NOTES_FULL. */
  maxNotes: z.number().int().min(1).max(100_000).default(1000),
});

export type ReleaseNotesConfig = z.output<typeof releaseNotesConfig>;
