// Where a bench writes its section of the benchmarks page. Reference figures in
// docs/benchmarks.md are committed deliberately, so a plain run leaves tracked files
// alone: it writes bench-results/benchmarks.md (git-ignored), a copy of the docs page
// with the new section. `--record` (`npm run bench:api -- --record`) updates the docs page.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/** The file a bench run writes to; the first plain run starts bench-results/ from the docs page. */
export function benchmarksFile(argv: string[] = process.argv, root = ROOT): string {
  const docs = join(root, "docs", "benchmarks.md");
  if (argv.includes("--record")) return docs;
  const file = join(root, "bench-results", "benchmarks.md");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(docs)) copyFileSync(docs, file);
    else writeFileSync(file, "# Benchmarks\n");
  }
  return file;
}

/** The closing line of a bench: where the figures went and how to record them. */
export function wroteTo(file: string, what: string, root = ROOT): string {
  return file === join(root, "docs", "benchmarks.md")
    ? `wrote ${what} to docs/benchmarks.md (reference figures: commit them)`
    : `wrote ${what} to ${relative(root, file)} (git-ignored; run with --record to update docs/benchmarks.md)`;
}

/** Replaces the `<!-- name:start -->…<!-- name:end -->` section of a benchmarks page (appends it when missing). */
export function writeMarkedSection(file: string, name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${markdown.trimEnd()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  writeFileSync(file, from >= 0 && to > from ? current.slice(0, from) + section + current.slice(to + end.length) : `${current.trimEnd()}\n\n${section}\n`);
}
