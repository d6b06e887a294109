// Which file names are searchable and of which type. Apart from path-rules.ts (which needs the
// host's list of skipped directories) so that the builder process's modules import nothing of
// the host (services/builder-process-main.ts runs without the host's module resolution).

const SEARCHABLE = /\.(md|ya?ml)$/i;

/** Whether a file name has a searchable extension (`.md`, `.yaml`, `.yml`). */
export function isSearchableName(name: string): boolean {
  return SEARCHABLE.test(name);
}

/** `markdown` or `yaml`, the file index entry's `type`. */
export function fileTypeOf(name: string): "markdown" | "yaml" {
  return /\.md$/i.test(name) ? "markdown" : "yaml";
}
