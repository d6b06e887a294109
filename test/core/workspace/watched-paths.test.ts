import { suite } from "uvu";
import * as assert from "uvu/assert";
import { isOtherDocument, isOtherRelative, isScratchName, isWatchedFile, isWatchedRelative, toRelative } from "../../../core/internal/workspace/watched-paths.ts";
import { coalesce } from "../../../core/internal/workspace/watcher.ts";

const t = suite("workspace watcher rules");

t("watched files: the spec's four locations and nothing else", () => {
  for (const rel of [
    "company/org_structure.yaml",
    "projects/alpha/board/tasks.yaml",
    "projects/alpha/board/archive/2030.yaml",
    "memory/2026-11-21.md",
    "memory/agents/main.md",
    "company/knowledge_base/README.md",
    "company/knowledge_base/feedback/odin-learnings.md",
  ]) assert.ok(isWatchedFile(rel), rel);
  for (const rel of [
    "",
    "MEMORY.md",
    "notes.md",
    "company/other.yaml",
    "company/org_structure.yaml/x",
    "company/knowledge_base",
    "projects/readme.md",
    "projects/alpha/notes.md",
    "projects/alpha/board",
    "drafts/post.md",
    "squads/dev/drafts/post.md",
    "memory/.hidden.md",
    "memory/.git/config",
    "memory/x.md.swp",
    "../memory/x.md",
  ]) assert.not.ok(isWatchedFile(rel), rel);
});

t("directories on the way to a watched location are kept so the watcher can reach it", () => {
  for (const rel of ["", "company", "projects", "projects/alpha", "projects/alpha/board", "memory", "company/knowledge_base"]) assert.ok(isWatchedRelative(rel), rel);
  for (const rel of ["squads", "node_modules", "company/secrets", "projects/alpha/src", ".git", "memory/.cache"]) assert.not.ok(isWatchedRelative(rel), rel);
});

t("documents elsewhere: markdown and YAML outside the watched locations, not hidden, scratch or in a skipped directory", () => {
  for (const rel of ["notes.md", "notes/2026/11/a.md", "company/policies/leave.yaml", "projects/alpha/notes.md", "projects/alpha/docs/x.YML", "drafts/post.md", "projects/readme.md"]) {
    assert.ok(isOtherDocument(rel), rel);
    assert.not.ok(isWatchedFile(rel), `${rel}: exactly one watcher reports it`);
  }
  for (const rel of [
    "",
    "notes/a.txt",
    "memory/2026/a.md",
    "company/org_structure.yaml",
    "company/knowledge_base/new/a.md",
    "projects/alpha/board/tasks.yaml",
    "notes/.hidden.md",
    "notes/.obsidian/x.md",
    "notes/node_modules/pkg/README.md",
    "vendor/lib/README.md",
    "notes/a.md.swp",
    "../notes/a.md",
  ]) assert.not.ok(isOtherDocument(rel), rel);
  // The document watcher enters the way to other folders but leaves the watched locations to the first watcher.
  for (const rel of ["", "company", "projects", "projects/alpha", "projects/alpha/docs", "notes/2026"]) assert.ok(isOtherRelative(rel), rel);
  for (const rel of ["memory", "company/knowledge_base", "projects/alpha/board", ".git", "site-packages", "a/__pycache__"]) assert.not.ok(isOtherRelative(rel), rel);
});

t("editors' scratch names", () => {
  for (const name of [".note.md.swp", ".note.md.swo", "note.swx", "note.md~", ".#note.md", "4913", "x.tmp", "x.TMP", ".DS_Store", "#note.md#", "a.part", "a.crdownload"]) assert.ok(isScratchName(name), name);
  for (const name of ["note.md", "tasks.yaml", "4914", "swp.md", "tmp.md", "a#b.md"]) assert.not.ok(isScratchName(name), name);
});

t("toRelative refuses paths outside the root", () => {
  assert.is(toRelative("/w", "/w/memory/a.md"), "memory/a.md");
  assert.is(toRelative("/w", "/w"), "");
  assert.is(toRelative("/w", "/other/a.md"), null);
  assert.is(toRelative("/w", "/w2/a.md"), null);
  assert.is(toRelative("/w", "/"), null);
});

t("toRelative normalises what its prefix cut cannot: dot segments, doubled and trailing separators", () => {
  assert.is(toRelative("/w", "/w/memory/../company/org_structure.yaml"), "company/org_structure.yaml");
  assert.is(toRelative("/w", "/w/./memory/a.md"), "memory/a.md");
  assert.is(toRelative("/w", "/w//memory/a.md"), "memory/a.md");
  assert.is(toRelative("/w", "/w/memory/"), "memory");
  assert.is(toRelative("/w", "/w/../etc/passwd"), null);
  assert.is(toRelative("/w/", "/w/memory/a.md"), "memory/a.md");
  assert.is(toRelative("/w/x/..", "/w/memory/a.md"), "memory/a.md");
  assert.is(toRelative("/w", "/w/.hidden/a.md"), ".hidden/a.md", "a dot name is not a dot segment");
});

t("a burst coalesces by its first and last raw event", () => {
  assert.is(coalesce("add", "change"), "created");
  assert.is(coalesce("add", "add"), "created");
  assert.is(coalesce("change", "change"), "updated");
  assert.is(coalesce("unlink", "add"), "updated", "atomic save");
  assert.is(coalesce("change", "unlink"), "deleted");
  assert.is(coalesce("unlink", "unlink"), "deleted");
  assert.is(coalesce("add", "unlink"), null, "created and removed within the burst");
});

t.run();
