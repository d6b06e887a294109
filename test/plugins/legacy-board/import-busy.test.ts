// A board import that meets another process's write lock halfway: the storage guard waits
// and the import still reports every row it inserted as imported, none as "already exists".
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const LOCKER = fileURLToPath(new URL("./fixtures/lock-when-rows.mjs", import.meta.url));
const TASKS = 2_000;
const t = suite("legacy-board: import meets a lock");

sqliteFileTest(t, "another process holds the lock of muster.db")("the report counts every task this request inserted", async () => {
  await withTestHost({ config: { scaffoldWorkspace: false, databaseBusyBudgetMs: 20_000 } }, async (h) => {
    const dir = join(h.workspace, "projects/big/board");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tasks.yaml"), Array.from({ length: TASKS }, (_, i) => `- {id: TASK-${i}, title: Task ${i}}`).join("\n") + "\n");
    const locker = spawn(process.execPath, [LOCKER, join(h.home, "muster.db"), "work_tasks", String(TASKS / 4), "300"], { stdio: ["ignore", "pipe", "inherit"] });
    const lines = createInterface({ input: locker.stdout! });
    const seen: string[] = [];
    lines.on("line", (line) => seen.push(line));
    const exited = once(locker, "exit");
    exited.catch(() => undefined);
    await Promise.race([once(lines, "line"), exited]); // "watching", or a locker that failed to start
    assert.ok(seen.includes("watching"), "the other process watches the table");
    let bound: NodeJS.Timeout | undefined;
    let res: { status: number; body: ApiBody<"postBoardImport"> };
    const timedOut = new Promise<never>((_, reject) => (bound = setTimeout(() => reject(new Error("the import and the locker: nothing after 30 s")), 30_000)));
    try {
      res = await Promise.race([h.json<ApiBody<"postBoardImport">>("/api/board/import?project=big", { method: "POST" }), timedOut]);
      await Promise.race([exited, timedOut]);
    } finally {
      clearTimeout(bound);
      if (locker.exitCode === null && locker.signalCode === null) locker.kill();
    }
    const locked = seen.find((line) => line.startsWith("locked "));
    assert.ok(locked, "the other process took the lock");
    const rowsAtLock = Number(locked.slice("locked ".length));
    assert.ok(rowsAtLock >= TASKS / 4 && rowsAtLock < TASKS, `the lock came during the import (${rowsAtLock} of ${TASKS} tasks were in)`);
    assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    assert.is(res.body.imported.tasks, TASKS, `skipped: ${res.body.skipped.length}`);
    assert.equal(res.body.skipped, []);
  });
});

t.run();
