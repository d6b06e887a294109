// The modules an address of the console will import, for its HTML to list as
// `<link rel="modulepreload">`. Without the list the browser discovers the console's ~40
// modules one import level at a time (a round trip per level, main.ts → app.ts → … → the SDK),
// and a page's own modules only after GET /dashboard/pages has answered and the page host has
// imported the page; with it the browser asks for all of them at once. The list is each entry's
// static import graph as served (types stripped, so `import type` adds nothing; `import()` is
// not followed), found once per entry and kept: the served files never change while running.
// Since the entries are served bundled (console-bundles.ts) the list is about ten modules.
import type { ServedFile } from "./console-files.ts";

/** `import … from "x"`, `import "x"`, `export … from "x"` at the start of a statement (esbuild's output puts each on its own line). */
const STATIC_IMPORT = /(?:^|[\n;])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g;
const PREFIX = "/dashboard/";

/** The specifiers a module imports statically. */
export function staticImports(code: string): string[] {
  return [...code.matchAll(STATIC_IMPORT)].map((match) => match[1]!);
}

/** A specifier as the browser resolves it from `from` (a `/dashboard/...` URL): the import map for bare names, the URL for the rest. */
function resolve(specifier: string, from: string, importMap: Readonly<Record<string, string>>): string | undefined {
  if (importMap[specifier]) return importMap[specifier];
  if (!/^\.{0,2}\//.test(specifier)) return undefined;
  return new URL(specifier, `http://console${from}`).pathname;
}

export class ModulePreloads {
  private readonly graphs = new Map<string, Promise<string[]>>();
  private readonly files: ReadonlyMap<string, ServedFile>;
  private readonly importMap: Readonly<Record<string, string>>;

  constructor(files: ReadonlyMap<string, ServedFile>, importMap: Readonly<Record<string, string>>) {
    this.files = files;
    this.importMap = importMap;
  }

  /** Every module `entries` import, directly or not, entries first, each once; [] if a file cannot be read (the browser then finds them itself). */
  async forEntries(entries: readonly string[]): Promise<string[]> {
    const graphs = await Promise.all(entries.map((entry) => this.graph(entry)));
    return [...new Set(graphs.flat())];
  }

  private graph(entry: string): Promise<string[]> {
    let graph = this.graphs.get(entry);
    if (!graph) {
      graph = this.walk(entry).catch(() => []);
      this.graphs.set(entry, graph);
    }
    return graph;
  }

  /** Breadth first, a level's files read in parallel. */
  private async walk(entry: string): Promise<string[]> {
    const seen = new Set<string>([entry]);
    let level = [entry];
    while (level.length) {
      const found = await Promise.all(level.map(async (url) => {
        const file = this.files.get(url.slice(PREFIX.length));
        if (!url.startsWith(PREFIX) || !file || !file.type.startsWith("text/javascript")) return [];
        return staticImports((await file.body()).toString("utf8")).map((specifier) => resolve(specifier, url, this.importMap));
      }));
      level = [];
      for (const url of found.flat()) {
        if (url && !seen.has(url) && this.files.has(url.slice(PREFIX.length))) {
          seen.add(url);
          level.push(url);
        }
      }
    }
    return [...seen];
  }
}
