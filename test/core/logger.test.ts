import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createLogger } from "../../core/internal/logger.ts";
import { removeHome } from "../helpers/start-test-host.ts";

// DESIGN §1: JSON logs by default, readable lines when stdout is a terminal.
const t = suite("logger");
const root = new URL("../..", import.meta.url).pathname;

function capture(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => lines.join("") };
}

t("not a terminal: one JSON object per line, secrets redacted", () => {
  const out = capture(false);
  const logger = createLogger("info", { destination: out.stream });
  logger.child({ plugin: "work" }).info({ id: "t1", token: "s3cret" }, "task created");
  const entry = JSON.parse(out.text().trim());
  assert.is(entry.msg, "task created");
  assert.is(entry.plugin, "work");
  assert.is(entry.id, "t1");
  assert.is(entry.token, "[redacted]");
});

t("a terminal: time, level, plugin, message and key=value fields, errors with their stack; still redacted", () => {
  const out = capture(true);
  const logger = createLogger("info", { destination: out.stream });
  logger.child({ plugin: "work" }).info({ id: "t1", token: "s3cret", tags: ["a"] }, "task created");
  logger.error({ err: new Error("disk full") }, "write failed");
  const plain = out.text().replace(/\x1b\[[0-9;]*m/g, "");
  const [first, second, stack] = plain.split("\n");
  assert.match(first!, /^\d\d:\d\d:\d\d\.\d{3} INFO  \[work\] task created  id=t1 token=\[redacted\] tags=\["a"\]$/);
  assert.match(second!, /^\d\d:\d\d:\d\d\.\d{3} ERROR write failed$/);
  assert.match(stack!, /^ {4}Error: disk full$/);
  assert.not.match(plain, /s3cret/);
  assert.ok(out.text().includes("\x1b["), "coloured on a terminal");
});

t("muster start on a terminal logs readable lines (run under script(1), a pseudo-terminal)", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-tty-"));
  const command = `exec ${JSON.stringify(process.execPath)} core/main.ts start`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: root,
    env: { ...process.env, PORT: "0", MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "info" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (c) => {
      output += c;
      if (/INFO .*muster started/.test(output.replace(/\x1b\[[0-9;]*m/g, ""))) resolve();
    });
    child.once("exit", () => reject(new Error(`exited before it started: ${output}`)));
  });
  try {
    await started;
    assert.not.match(output, /"level":30/, "no JSON on a terminal");
  } finally {
    child.kill("SIGTERM");
    removeHome(home);
  }
});

t.run();
