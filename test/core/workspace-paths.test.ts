import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspacePaths } from "../../core/internal/workspace/paths.ts";
import { MusterError } from "@muster/plugin";

const t = suite("workspace paths");

function refuses(fn: () => unknown, label: string) {
  try {
    fn();
    assert.unreachable(label);
  } catch (error) {
    assert.instance(error, MusterError, label);
    assert.is((error as MusterError).code, "PATH_OUTSIDE_WORKSPACE", label);
  }
}

t("relative paths inside resolve; escapes are refused", () => {
  const root = mkdtempSync(join(tmpdir(), "muster-ws-"));
  const outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
  mkdirSync(join(root, "memory"));
  const ws = createWorkspacePaths(root);
  assert.is(ws.resolve("memory/2026-11-21.md"), join(ws.root, "memory/2026-11-21.md"));
  assert.is(ws.resolve("new/dir/file.md"), join(ws.root, "new/dir/file.md"));
  assert.is(ws.relative(join(ws.root, "a", "b.md")), "a/b.md");
  for (const bad of ["../x", "memory/../../x", "/etc/passwd", "a\0b", "C:\\x"]) refuses(() => ws.resolve(bad), bad);

  symlinkSync(outside, join(root, "link-dir"));
  refuses(() => ws.resolve("link-dir/file.md"), "symlinked directory leaving the workspace");
  symlinkSync(join(outside, "missing.md"), join(root, "dangling.md"));
  refuses(() => ws.resolve("dangling.md"), "dangling symlink pointing outside");
  symlinkSync(join(outside, "missing-dir", "deeper"), join(root, "dangling-dir"));
  refuses(() => ws.resolve("dangling-dir/file.md"), "dangling directory symlink pointing outside");
  symlinkSync(join(root, "memory", "soon.md"), join(root, "inside-dangling.md"));
  assert.is(ws.resolve("inside-dangling.md"), join(ws.root, "inside-dangling.md"), "dangling link to a place inside is fine");
  symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  assert.not.throws(() => {
    try {
      ws.resolve("loop-a/x");
    } catch (error) {
      if (!(error instanceof MusterError)) throw error;
    }
  }, "a symlink loop never crashes");
});

t.run();
