// The start gate: the server listens before the plugins' onStart have run, so that
// /api/health answers early (a cold start's first answer), but no other request reaches a
// route until the start has ended: each waits here, then runs against fully started
// plugins, or gets 503 SERVICE_UNAVAILABLE when the start failed. Once open, a request pays
// one boolean test.
import type { Context, Next } from "koa";
import { hostErrors } from "../../plugin-api/errors.ts";

/** The one path answered while the plugins start: it reads only the database's and the host's state. */
const ANSWERED_WHILE_STARTING = "/api/health";

export interface StartGate {
  /** Koa middleware: lets a request through at once when open or for /api/health, else after the start. */
  wait: (ctx: Context, next: Next) => Promise<unknown>;
  open(): void;
  /** Whether the start has ended well: the lean lane (lean-lane.ts) serves only then. */
  isOpen(): boolean;
  /** The start failed or was stopped before it ended: waiting and later requests get 503 (no-op once open). */
  fail(): void;
}

export function startGate(): StartGate {
  let state: "starting" | "open" | "failed" = "starting";
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  async function waitForStart(ctx: Context, next: Next): Promise<unknown> {
    if (state === "starting" && ctx.path !== ANSWERED_WHILE_STARTING) await ended;
    if (state === "failed") throw hostErrors.SERVICE_UNAVAILABLE({ reason: "the server failed to start" });
    return next();
  }
  return {
    wait(ctx, next) {
      // Not an async function: once open, a request passes without a promise of its own.
      if (state === "open") return next();
      return waitForStart(ctx, next);
    },
    isOpen: () => state === "open",
    open() {
      state = "open";
      release();
    },
    fail() {
      if (state === "open") return;
      state = "failed";
      release();
    },
  };
}
