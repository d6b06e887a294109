// The HTTP examples of README.md and docs/*.md, as a reader copies them: every `curl` command
// to the local server (127.0.0.1:3333 or localhost:3333, or `$B` set to it) in a sh/bash/plain
// fenced block, and every ```http block. Other shell lines (npm, npx, git) are not examples
// of the API and are left to the suites of their commands.
//
// A block is left out only when the line before its fence is the marker
//   <!-- examples: not run: <why> -->
// (the test lists every marked block with its reason, so the set stays visible).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DocExample {
  /** `README.md:123` (the line the command starts on). */
  where: string;
  kind: "curl" | "http";
  /** curl: the command with continuations joined and its trailing comment removed; http: the block. */
  text: string;
  /** curl: `VAR=value` lines of the same block before it (`B=…`, `TOKEN=$(…)`), run first. */
  preamble: string[];
  /** The trailing `# …` comment of a curl line (what the docs say it answers). */
  comment: string;
}

export interface SkippedBlock {
  where: string;
  reason: string;
}

const MARKER = /^<!--\s*examples:\s*not run:\s*(.+?)\s*-->$/;
const LOCAL = /(127\.0\.0\.1|localhost):3333|\$B\b/;

export function docFiles(root: string): string[] {
  return ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];
}

export function extractExamples(root: string): { examples: DocExample[]; skipped: SkippedBlock[] } {
  const examples: DocExample[] = [];
  const skipped: SkippedBlock[] = [];
  for (const file of docFiles(root)) {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const fence = /^\s*```(\w*)\s*$/.exec(lines[i]!);
      if (!fence) continue;
      const lang = fence[1]!;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
      const body = lines.slice(start, end);
      const before = lines.slice(0, i).reverse().find((line) => line.trim() !== "")?.trim() ?? "";
      const marked = MARKER.exec(before);
      i = end;
      if (!["sh", "bash", "", "http"].includes(lang)) continue;
      if (marked) {
        skipped.push({ where: `${file}:${start}`, reason: marked[1]! });
        continue;
      }
      if (lang === "http") examples.push({ where: `${file}:${start}`, kind: "http", text: body.join("\n"), preamble: [], comment: "" });
      else examples.push(...curlCommands(file, start, body));
    }
  }
  return { examples, skipped };
}

function curlCommands(file: string, firstLine: number, body: string[]): DocExample[] {
  const found: DocExample[] = [];
  const preamble: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const lineNo = firstLine + i + 1;
    let line = body[i]!.trim();
    while (line.endsWith("\\") && i + 1 < body.length) line = `${line.slice(0, -1).trimEnd()} ${body[++i]!.trim()}`;
    if (line === "" || line.startsWith("#")) continue;
    const { command, comment } = splitComment(line);
    if (/^[A-Z_][A-Z0-9_]*=\S/.test(command) && !/\s(curl|npm|npx)\s/.test(` ${command} `)) preamble.push(command);
    else if (/^curl\s/.test(command) && LOCAL.test(command)) found.push({ where: `${file}:${lineNo}`, kind: "curl", text: command, preamble: [...preamble], comment });
  }
  return found;
}

/** Splits `cmd … # comment` at the first `#` outside quotes that follows a space. */
export function splitComment(line: string): { command: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && i > 0 && /\s/.test(line[i - 1]!)) return { command: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
  }
  return { command: line, comment: "" };
}

/** `<task id>`-style placeholders a reader fills in with an id from an earlier answer. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/<([a-z][a-z .$/_-]*)>/gi)].map((m) => m[0]))];
}

/**
 * The shell blocks of a walkthrough (between `<!-- walkthrough: <name> -->` and
 * `<!-- /walkthrough -->` in a docs page), in order: a test runs their commands as written.
 */
export function walkthroughBlocks(root: string, file: string, name: string): { where: string; commands: string[] }[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === `<!-- walkthrough: ${name} -->`);
  const end = lines.findIndex((line, i) => i > start && line.trim() === "<!-- /walkthrough -->");
  if (start < 0 || end < 0) throw new Error(`${file} has no walkthrough "${name}"`);
  const blocks: { where: string; commands: string[] }[] = [];
  for (let i = start; i < end; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i]!.trim())) continue;
    const first = i + 1;
    while (!/^```\s*$/.test(lines[++i]!.trim()));
    const commands = lines.slice(first, i).map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
    blocks.push({ where: `${file}:${first}`, commands });
  }
  return blocks;
}
