// `cron.*`: jobs kept in memory (they survive a restart of the fake), `cron` events for every
// change and run, runs that finish at once after their `res` (as observed).
import { randomUUID } from "node:crypto";
import type { FakeAgents } from "./agents.ts";
import { FakeGatewayError, invalid, type Broadcast } from "./types.ts";

export const CRON_METHODS = ["cron.list", "cron.status", "cron.add", "cron.update", "cron.remove", "cron.run", "cron.runs"];

export class FakeCron {
  private jobs = new Map<string, Record<string, unknown> & { id: string }>();
  private runs: Array<Record<string, unknown>> = [];
  private runCount = 0;

  private readonly agents: FakeAgents;
  private readonly broadcast: Broadcast;

  constructor(agents: FakeAgents, broadcast: Broadcast) {
    this.agents = agents;
    this.broadcast = broadcast;
  }

  method(method: string, params: any): unknown {
    const find = () => {
      const id = params.id ?? params.jobId;
      const job = typeof id === "string" ? this.jobs.get(id) : undefined;
      if (!job) throw invalid(`Automation not found: ${id}.`, { code: "CRON_JOB_NOT_FOUND", jobId: id });
      return job;
    };
    const event = (payload: Record<string, unknown>) => this.broadcast("cron", payload);
    switch (method) {
      case "cron.status":
        return { enabled: true, triggersEnabled: true, storage: "memory", jobs: this.jobs.size };
      case "cron.list": {
        let jobs = [...this.jobs.values()];
        if (!params.includeDisabled) jobs = jobs.filter((j) => j.enabled !== false);
        if (params.agentId) jobs = jobs.filter((j) => j.agentId === params.agentId);
        const offset = params.offset ?? 0;
        const limit = Math.min(params.limit ?? 50, 200);
        const page = jobs.slice(offset, offset + limit).map((j) => ({ ...j, effectiveAgentId: j.agentId ?? this.agents.defaultId }));
        const hasMore = offset + limit < jobs.length;
        return { jobs: page, total: jobs.length, offset, limit, hasMore, nextOffset: hasMore ? offset + limit : null };
      }
      case "cron.add": {
        for (const field of ["name", "schedule", "sessionTarget", "wakeMode", "payload"]) {
          if (params[field] === undefined) throw invalid(`invalid cron.add params: must have required property '${field}'`);
        }
        if (params.schedule?.kind === "cron" && String(params.schedule.expr ?? "").trim().split(/\s+/).length < 5) {
          throw new FakeGatewayError({ code: "INVALID_REQUEST", message: `CronPattern: invalid configuration format ('${params.schedule.expr}'), exactly five, six, or seven space separated parts are required.` });
        }
        if (this.agents.list.length > 1 && !params.agentId) throw new FakeGatewayError({ code: "UNAVAILABLE", message: "Error: Agent-less cron job has no resolvable owner. Pass --agent <id>" });
        const now = Date.now();
        const job = { enabled: true, ...params, id: randomUUID(), createdAtMs: now, updatedAtMs: now, state: { nextRunAtMs: now + 60_000 }, nextRunAtMs: now + 60_000 };
        this.jobs.set(job.id, job);
        event({ jobId: job.id, action: "added", job, nextRunAtMs: job.nextRunAtMs });
        return job;
      }
      case "cron.update": {
        const job = find();
        if (typeof params.patch !== "object" || params.patch === null) throw invalid("invalid cron.update params: must have required property 'patch'");
        Object.assign(job, params.patch, { updatedAtMs: Date.now() });
        event({ jobId: job.id, action: "updated", job });
        return job;
      }
      case "cron.remove": {
        const job = find();
        this.jobs.delete(job.id);
        event({ jobId: job.id, action: "removed", job });
        return { ok: true, removed: true };
      }
      case "cron.run": {
        const job = find();
        const runId = `manual:${job.id}:${Date.now()}:${++this.runCount}`;
        // `cron.run` only enqueues: the res first, then started/finished (as observed).
        setImmediate(() => {
          const runAtMs = Date.now();
          event({ jobId: job.id, action: "started", job, runAtMs, runId });
          const entry = { ts: Date.now(), jobId: job.id, action: "finished", status: "ok", summary: "done", runId, runAtMs, durationMs: 1, model: "fake-model", provider: "fake", usage: { input: 10, output: 5 }, jobName: job.name };
          this.runs.unshift(entry);
          job.lastRunAtMs = runAtMs;
          job.lastRunStatus = "ok";
          event({ jobId: job.id, action: "finished", status: "ok", runId, runAtMs, durationMs: 1, usage: entry.usage });
        });
        return { ok: true, enqueued: true, runId };
      }
      case "cron.runs": {
        let entries = this.runs;
        const id = params.id ?? params.jobId;
        if (id) entries = entries.filter((e) => e.jobId === id);
        if (params.runId) entries = entries.filter((e) => e.runId === params.runId);
        return { entries: entries.slice(0, params.limit ?? 50), total: entries.length };
      }
    }
    throw invalid(`unknown method: ${method}`);
  }
}
