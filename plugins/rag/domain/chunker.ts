/** A piece of a markdown file that is embedded on its own. Lines are 1-based and inclusive. */
export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

const MIN_WORDS = 200;
const MAX_WORDS = 400;
const HEADING = /^#{1,6}\s+\S/;

const wordCount = (lines: string[]) => lines.reduce((n, l) => n + (l.match(/\S+/g)?.length ?? 0), 0);

/**
 * Splits markdown by heading into chunks of about 200–400 words: a section is one chunk,
 * short neighbouring sections are merged (up to 400 words) so tiny headings do not become
 * near-empty vectors, and long sections are cut at blank lines (or, failing that, at the
 * 400-word line) so no chunk outgrows what an encoder reads.
 */
export function chunkMarkdown(content: string): Chunk[] {
  const lines = content.split(/\r?\n/);
  const sections: { start: number; lines: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (sections.length === 0 || HEADING.test(lines[i]!)) sections.push({ start: i, lines: [] });
    sections.at(-1)!.lines.push(lines[i]!);
  }
  const pieces = sections.flatMap((s) => splitLong(s.start, s.lines));
  const merged: { start: number; lines: string[] }[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (last && wordCount(last.lines) < MIN_WORDS && wordCount(last.lines) + wordCount(piece.lines) <= MAX_WORDS) last.lines.push(...piece.lines);
    else merged.push({ start: piece.start, lines: [...piece.lines] });
  }
  return merged
    .map((m) => trimBlank(m.start, m.lines))
    .filter((m) => m.lines.some((l) => /[\p{L}\p{N}]/u.test(l)))
    .map((m) => ({ startLine: m.start + 1, endLine: m.start + m.lines.length, text: m.lines.join("\n") }));
}

function splitLong(start: number, lines: string[]): { start: number; lines: string[] }[] {
  if (wordCount(lines) <= MAX_WORDS) return [{ start, lines }];
  const out: { start: number; lines: string[] }[] = [];
  let current: { start: number; lines: string[] } = { start, lines: [] };
  let words = 0;
  for (let i = 0; i < lines.length; i++) {
    const w = lines[i]!.match(/\S+/g)?.length ?? 0;
    // Prefer a paragraph break once the piece is big enough; force a cut at the maximum.
    const cut = (words >= MIN_WORDS && lines[i]!.trim() === "") || (words + w > MAX_WORDS && current.lines.length > 0);
    if (cut) {
      out.push(current);
      current = { start: start + i, lines: [] };
      words = 0;
    }
    current.lines.push(lines[i]!);
    words += w;
  }
  if (current.lines.length > 0) out.push(current);
  return out;
}

function trimBlank(start: number, lines: string[]) {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === "") a++;
  while (b > a && lines[b - 1]!.trim() === "") b--;
  return { start: start + a, lines: lines.slice(a, b) };
}
