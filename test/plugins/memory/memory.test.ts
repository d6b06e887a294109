import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; outside: string }>("memory: daily and long-term memory");

const write = (h: TestHost, rel: string, content: string | Uint8Array, mtime?: Date) => {
  const abs = join(h.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
  if (mtime) utimesSync(abs, mtime, mtime);
};

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false, pluginConfig: { memory: { contentMaxBytes: 2048 } } } });
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
  writeFileSync(join(ctx.outside, "secret.md"), "TOP SECRET outside the workspace");
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
  rmSync(ctx.outside, { recursive: true, force: true });
});

t("no memory directory and no MEMORY.md: empty list and 404", async ({ h }) => {
  rmSync(join(h.workspace, "memory"), { recursive: true, force: true });
  rmSync(join(h.workspace, "MEMORY.md"), { force: true });
  const list = await h.json<ApiBody<"getMemory">>("/api/memory");
  assert.is(list.status, 200);
  assert.equal(list.body, []);
  const longterm = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm");
  assert.is(longterm.status, 404);
  assert.is(longterm.body.error?.code, "MEMORY_LONGTERM_NOT_FOUND");
});

t("daily files: only YYYY-MM-DD.md with real dates, newest first, with every field", async ({ h }) => {
  write(h, "memory/2026-11-19.md", "# Day one\nthree words here");
  write(h, "memory/2026-11-21.md", "newest note");
  write(h, "memory/2026-11-20.md", "middle");
  write(h, "memory/notes.md", "not a daily file");
  write(h, "memory/2026-02-30.md", "not a real date");
  write(h, "memory/2026-11-18.txt", "wrong extension");
  mkdirSync(join(h.workspace, "memory/2026-11-17.md"), { recursive: true });
  const list = await h.json<ApiBody<"getMemory">>("/api/memory");
  assert.is(list.status, 200);
  assert.equal(list.body.map((f) => f.date), ["2026-11-21", "2026-11-20", "2026-11-19"]);
  const oldest = list.body[2];
  assert.ok(oldest, "oldest is there");
  assert.is(oldest.name, "2026-11-19.md");
  assert.is(oldest.path, "memory/2026-11-19.md");
  assert.is(oldest.content, "# Day one\nthree words here");
  assert.is(oldest.wordCount, 6);
  assert.is(oldest.size, Buffer.byteLength("# Day one\nthree words here"));
  assert.is(oldest.truncated, false);
  assert.is(oldest.binary, false);
  assert.ok(!Number.isNaN(Date.parse(oldest.modifiedAt)));
  const limited = await h.json<ApiBody<"getMemory">>("/api/memory?limit=1");
  assert.equal(limited.body.map((f) => f.date), ["2026-11-21"]);
});

t("huge and binary files: content capped on a character boundary and flagged; binary flagged", async ({ h }) => {
  const big = "é".repeat(5000); // 10,000 bytes, 2-byte characters; cap is 2048
  write(h, "memory/2026-11-16.md", big);
  write(h, "memory/2026-11-15.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]));
  const list = await h.json<ApiBody<"getMemory">>("/api/memory?limit=366");
  const huge = list.body.find((f) => f.date === "2026-11-16");
  assert.ok(huge, "huge is there");
  assert.is(huge.truncated, true);
  assert.is(huge.size, 10_000);
  assert.is(huge.wordCount, 1);
  assert.ok(Buffer.byteLength(huge.content) <= 2048);
  assert.is(huge.content, "é".repeat(1024));
  const binary = list.body.find((f) => f.date === "2026-11-15");
  assert.ok(binary, "binary is there");
  assert.is(binary.binary, true);
  assert.is(binary.content, "");
});

t("symlinks leaving the workspace are never read", async ({ h, outside }) => {
  symlinkSync(join(outside, "secret.md"), join(h.workspace, "memory/2026-11-14.md"));
  const list = await h.json<ApiBody<"getMemory">>("/api/memory?limit=366");
  assert.is(list.status, 200);
  assert.not.ok(list.body.some((f) => f.date === "2026-11-14"));
  assert.not.ok(JSON.stringify(list.body).includes("TOP SECRET"));
  symlinkSync(join(outside, "secret.md"), join(h.workspace, "MEMORY.md"));
  const longterm = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm");
  assert.is(longterm.status, 404, "a link out reads as absent: the request named no path");
  assert.is(longterm.body.error?.code, "MEMORY_LONGTERM_NOT_FOUND");
  assert.not.ok(JSON.stringify(longterm.body).includes("TOP SECRET"));
  rmSync(join(h.workspace, "MEMORY.md"));
});

t("a memory directory that is a symlink out of the workspace reads as empty", async ({ h, outside }) => {
  const saved = join(h.home, "memory-saved");
  const { renameSync } = await import("node:fs");
  renameSync(join(h.workspace, "memory"), saved);
  mkdirSync(join(outside, "memory"));
  writeFileSync(join(outside, "memory/2026-01-01.md"), "TOP SECRET daily");
  symlinkSync(join(outside, "memory"), join(h.workspace, "memory"));
  const list = await h.json<ApiBody<"getMemory">>("/api/memory");
  assert.is(list.status, 200);
  assert.equal(list.body, []);
  rmSync(join(h.workspace, "memory"));
  renameSync(saved, join(h.workspace, "memory"));
});

t("long-term memory: fields, cap and binary refusal", async ({ h }) => {
  write(h, "MEMORY.md", "# Long-term\n\nCurated facts.");
  const res = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm");
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.content, "# Long-term\n\nCurated facts.");
  assert.is(res.body.wordCount, 4);
  assert.is(res.body.size, Buffer.byteLength("# Long-term\n\nCurated facts."));
  assert.is(res.body.truncated, false);
  assert.ok(res.body.modifiedAt);
  write(h, "MEMORY.md", "x ".repeat(4000));
  const capped = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm");
  assert.is(capped.body.truncated, true);
  assert.is(capped.body.wordCount, 4000);
  assert.is(capped.body.content.length, 2048);
  write(h, "MEMORY.md", Buffer.from([0, 1, 2, 3]));
  const binary = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm");
  assert.is(binary.status, 422);
  assert.is(binary.body.error?.code, "MEMORY_FILE_NOT_TEXT");
  rmSync(join(h.workspace, "MEMORY.md"));
});

t("a FIFO with a memory name does not hang the request", async ({ h }) => {
  const { execFileSync } = await import("node:child_process");
  execFileSync("mkfifo", [join(h.workspace, "memory/2026-11-13.md")]);
  const res = await h.json<ApiBody<"getMemory">>("/api/memory?limit=366", { signal: AbortSignal.timeout(5000) });
  assert.is(res.status, 200);
  assert.not.ok(res.body.some((f) => f.date === "2026-11-13"));
  rmSync(join(h.workspace, "memory/2026-11-13.md"));
});

t("bad query parameters are refused", async ({ h }) => {
  for (const q of ["limit=0", "limit=367", "limit=abc", "limit=1e309", "path=../../etc", "bogus=1"]) {
    const res = await h.json<ApiBody<"getMemory">>(`/api/memory?${q}`);
    assert.is(res.status, 400, q);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", q);
  }
  const res = await h.json<ApiBody<"getMemoryLongterm">>("/api/memory/longterm?path=..%2F..%2Fetc%2Fpasswd");
  assert.is(res.status, 404, JSON.stringify(res.body).slice(0, 300));
});

t.run();
