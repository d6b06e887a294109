// The baseline's request handling (issue 26): what `npm run bench:api` compares Muster with,
// a bare node:http listener over better-sqlite3 doing the same work as Muster's GET
// /api/health, GET /api/tasks and POST /api/tasks, on the same table shape, with none of the
// framework (no Koa, zod, ORM or logging). It does the security work every Muster answer
// does, as issue 26 sets the baseline's job: the same response headers (a request id, CSP and
// the other security headers, from Muster's own list) and the Host check against DNS
// rebinding. Served by baseline-server.ts; called in-process by listener-cost.ts (its floor).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type Database from "better-sqlite3";
import { migrations } from "../../plugins/work/migrations.ts";
import { PRIORITIES, TASK_STATUSES } from "../../plugins/work/entities/values.ts";
import { securityHeaderValues } from "../../core/internal/http/security.ts";

const SECURITY_HEADERS = securityHeaderValues(false);
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/** The work plugin's very table and indexes, from its own migrations, with the pragmas of core/internal/database.ts. */
export function prepareBaselineDatabase(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.pragma("synchronous = NORMAL");
  for (const migration of migrations) for (const statement of [migration.up].flat()) if (typeof statement === "string") db.exec(statement);
}

export function baselineListener(db: Database.Database): RequestListener {
  const startedAt = Date.now();
  const startedAtIso = new Date(startedAt).toISOString();
  const ping = db.prepare("SELECT 1");
  const list = db.prepare("SELECT * FROM work_tasks ORDER BY updatedAt DESC, rowid DESC");
  const insert = db.prepare(`INSERT INTO work_tasks (id, title, description, status, priority, assignedTo, projectId, storyId, sprintId,
    estimatedHours, actualHours, tags, notes, createdAt, updatedAt, completedAt)
    VALUES (@id, @title, @description, @status, @priority, @assignedTo, @projectId, @storyId, @sprintId,
    @estimatedHours, @actualHours, @tags, @notes, @createdAt, @updatedAt, @completedAt)`);

  async function createTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return send(res, 415, { ok: false, error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return send(res, 400, { ok: false, error: { code: "INVALID_JSON" } });
    }
    const fields = taskFields(input);
    if (!fields) return send(res, 400, { ok: false, error: { code: "VALIDATION_FAILED" } });
    const now = new Date().toISOString();
    const row = { id: randomUUID(), ...fields, createdAt: now, updatedAt: now, completedAt: null };
    insert.run(row);
    send(res, 201, row);
  }

  return (req, res) => {
    if (!LOOPBACK_HOST.test(req.headers.host ?? "")) return send(res, 403, { ok: false, error: { code: "HOST_NOT_ALLOWED" } });
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/api/health" && req.method === "GET") {
      const database = ping.get() ? "ok" : "error";
      // The same fields as Muster's answer (a gateway link's status, the watcher's state).
      const gateway = { state: "disabled", url: null, since: startedAtIso };
      return send(res, 200, {
        status: "ok", timestamp: new Date().toISOString(), version: "baseline", uptimeMs: Date.now() - startedAt, database,
        gateway, gateways: [{ name: "default", ...gateway }], watcher: "ready",
      });
    }
    if (path === "/api/tasks" && req.method === "GET") return send(res, 200, list.all());
    if (path === "/api/tasks" && req.method === "POST") {
      createTask(req, res).catch(() => send(res, 500, { ok: false, error: { code: "INTERNAL_ERROR" } }));
      return;
    }
    send(res, 404, { ok: false, error: { code: "NOT_FOUND" } });
  };
}

/** Free text of at most `max` characters, or null when absent. */
const text = (value: unknown, max: number): string | null | false => (value === undefined || value === null ? null : typeof value === "string" && value.length <= max && value);
const hours = (value: unknown): number | null | false => (value === undefined || value === null ? null : Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 100_000 && (value as number));
const oneOf = <T extends string>(value: unknown, values: readonly T[], fallback: T): T | false => (value === undefined ? fallback : values.includes(value as T) && (value as T));

/**
 * A created task's columns from the request, every field Muster's create takes stored as
 * given (the list then reads the same rows on both servers); false when one is not of its
 * type. Type and length checks only: Muster's reference checks need other tables.
 */
function taskFields(input: Record<string, unknown> | null) {
  if (typeof input !== "object" || input === null) return false;
  const title = input.title;
  if (typeof title !== "string" || title.trim() === "" || title.length > 500) return false;
  const fields = {
    title,
    description: text(input.description, 20_000),
    status: oneOf(input.status, TASK_STATUSES, "backlog"),
    priority: oneOf(input.priority, PRIORITIES, "medium"),
    assignedTo: text(input.assignedTo, 128),
    projectId: text(input.projectId, 128),
    storyId: text(input.storyId, 128),
    sprintId: text(input.sprintId, 128),
    estimatedHours: hours(input.estimatedHours),
    actualHours: hours(input.actualHours),
    tags: text(input.tags, 1_000),
    notes: text(input.notes, 20_000),
  };
  return Object.values(fields).includes(false) ? false : fields;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "X-Request-Id": randomUUID(),
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
