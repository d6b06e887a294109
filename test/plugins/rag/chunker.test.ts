// Chunking by heading: line ranges that point at the text, small sections merged, long ones cut.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { chunkMarkdown } from "../../../plugins/rag/domain/chunker.ts";

const t = suite("rag chunker");
const words = (n: number, w = "word") => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");

t("each chunk's startLine..endLine is exactly its text", () => {
  const md = `# A\n\n${words(250, "a")}\n\n# B\n\n${words(250, "b")}\n`;
  const lines = md.split("\n");
  const chunks = chunkMarkdown(md);
  assert.is(chunks.length, 2);
  for (const c of chunks) assert.is(lines.slice(c.startLine - 1, c.endLine).join("\n"), c.text);
  assert.equal([chunks[0]!.startLine, chunks[1]!.startLine], [1, 5]);
});

t("short sections are merged up to ~400 words; a long one is cut to at most 400 words per chunk", () => {
  const small = chunkMarkdown("# one\nalpha\n# two\nbeta\n# three\ngamma\n");
  assert.is(small.length, 1);
  assert.equal([small[0]!.startLine, small[0]!.endLine], [1, 6]);
  const long = chunkMarkdown(`# Long\n${Array.from({ length: 30 }, () => words(50)).join("\n\n")}\n`);
  assert.ok(long.length >= 4);
  for (const c of long) assert.ok((c.text.match(/\S+/g) ?? []).length <= 400);
});

t("empty, blank and punctuation-only files give no chunks", () => {
  assert.equal(chunkMarkdown(""), []);
  assert.equal(chunkMarkdown("\n\n   \n"), []);
  assert.equal(chunkMarkdown("---\n***\n"), []);
});

t.run();
