import { randomUUID } from "node:crypto";
import { MusterError, type EventBus, type GatewayClient, type Logger, type RateLimits, type SharedRateLimiter } from "@muster/plugin";
import { councilErrors } from "../errors.ts";
import type { Council, NewCouncilSession } from "../tokens.ts";
import type { CouncilSessionRecord } from "./council-record.ts";
import type { CouncilStore } from "./council-store.ts";
import { deliberate, type DeliberationDeps } from "./deliberation.ts";

/** Sessions cut short by a shutdown are recorded with this reason. */
const STOPPED = "Muster stopped during the deliberation";

/**
 * Starts council sessions and runs each in the background. The rate-limit slot (1 running,
 * 3 started per minute) is taken before anything is stored and held by the running
 * session until it ends in any way. A shutdown aborts running sessions and records them
 * `cancelled`; one a crash left `running` is failed at the next start (lifecycle.ts).
 */
export class CouncilService implements Council {
  /** The spec's council pair, held across instances in team mode (`hostTokens.rateLimits`). */
  private readonly limiter: SharedRateLimiter;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly deps: DeliberationDeps & { gateway: GatewayClient; logger: Logger; events: EventBus };
  constructor(deps: DeliberationDeps & { gateway: GatewayClient; logger: Logger; events: EventBus; rateLimits: RateLimits }) {
    this.deps = deps;
    this.limiter = deps.rateLimits.create({ feature: "council", ...deps.config.rateLimit });
  }

  async start(input: NewCouncilSession): Promise<CouncilSessionRecord> {
    const release = await this.limiter.acquire();
    let session: CouncilSessionRecord;
    try {
      // Unknown members are 404 whether or not the gateway is up: the crew knows them locally.
      await this.deps.crew?.assertKnown(input.agents);
      await this.deps.gateway.ready(0);
      // Known to Muster but not to this gateway: refused with the fix, as chat does (the crew's check).
      await this.deps.crew?.assertRegistered(input.agents);
      // A member over its daily budget refuses the session (409 BUDGET_EXCEEDED), as chat, crons and dispatch do.
      for (const agentId of input.agents) await this.deps.usage?.checkBudget(agentId);
      session = {
        id: randomUUID(),
        topic: input.topic,
        agents: input.agents,
        rounds: input.rounds,
        status: "running",
        positions: [],
        proposal: null,
        votes: [],
        outcome: null,
        approvalId: null,
        memoPath: null,
        error: null,
        createdAt: new Date().toISOString(),
        completedAt: null,
        ratifiedAt: null,
        ratifiedBy: null,
      };
      await this.deps.store.insert(session);
    } catch (error) {
      // Free before the refusal is answered (in team mode the slot is a row another instance counts).
      await release();
      throw error;
    }
    this.deps.events.publish("council.session.created", session, { public: true });
    const controller = new AbortController();
    const done = this.run(session, controller.signal).finally(() => {
      this.running.delete(session.id);
      release();
    });
    this.running.set(session.id, { controller, done });
    return session;
  }

  async list(limit: number): Promise<CouncilSessionRecord[]> {
    return this.deps.store.list(limit);
  }

  async get(id: string): Promise<CouncilSessionRecord> {
    const session = await this.deps.store.get(id);
    if (!session) throw councilErrors.COUNCIL_SESSION_NOT_FOUND({ id });
    return session;
  }

  /** Aborts every running session and waits until each has recorded how it ended. */
  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const { controller } of all) controller.abort(new Error(STOPPED));
    await Promise.all(all.map((r) => r.done));
  }

  /** Never rejects: every way a deliberation ends is recorded on the session. */
  private async run(session: CouncilSessionRecord, signal: AbortSignal): Promise<void> {
    try {
      await deliberate(this.deps, session, signal);
      await this.publishEnd(session.id, "council.session.completed");
    } catch (error) {
      const cancelled = signal.aborted;
      const reason = cancelled ? STOPPED : error instanceof MusterError ? `${error.code}: ${error.message}` : "Internal error; the server log has the details";
      if (!cancelled && !(error instanceof MusterError)) this.deps.logger.error({ err: error, sessionId: session.id }, "council deliberation failed");
      try {
        await this.deps.store.end(session.id, cancelled ? "cancelled" : "failed", reason, new Date().toISOString());
        await this.publishEnd(session.id, cancelled ? "council.session.cancelled" : "council.session.failed");
      } catch (storeError) {
        // The next start fails any session still `running` (lifecycle.ts).
        this.deps.logger.error({ err: storeError, sessionId: session.id }, "could not record the end of a council session");
      }
    }
  }

  private async publishEnd(id: string, name: "council.session.completed" | "council.session.failed" | "council.session.cancelled"): Promise<void> {
    const session = await this.deps.store.get(id);
    if (session) this.deps.events.publish(name, session, { public: true });
  }
}
