// Waits on the thing a test expects (a condition, a bus event) instead of sleeping a guessed
// time: fast when the thing happens at once, bounded when it never does, and the failure
// names what was awaited.
import { definePlugin, type PluginDefinition } from "../define-plugin.ts";
import type { EventName, EventPattern, MusterEvent, MusterEvents } from "../events.ts";
import { scaled } from "./time-scale.ts";

export interface WaitOptions {
  /** Give up after this long (default 2 s), stretched on a loaded machine (time-scale.ts). */
  timeoutMs?: number;
  /** Pause between checks (default 10 ms). */
  intervalMs?: number;
  /** Names the awaited thing in the timeout error. */
  label?: string;
}

/** Resolves with `check()`'s first truthy answer; rejects after `timeoutMs` without one. */
export async function waitUntil<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs: bound = 2_000, intervalMs = 10, label = "condition" } = options;
  const timeoutMs = scaled(bound);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await sleep(intervalMs);
  }
}

/** Lets time pass on purpose. Only for what has nothing to wait on (a window in which nothing may happen, a clock that must move); say why at the call. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface EventRecorder {
  /** A plugin to pass in `extraPlugins`: it records every bus event matching the pattern. */
  plugin: PluginDefinition;
  /** Every event recorded so far (across host restarts). */
  events: MusterEvent[];
  /** Resolves with the first recorded event (past or future) named `name` that matches `predicate`; a known name's payload is typed from `MusterEvents`. */
  waitFor<N extends EventName>(name: N, predicate?: (event: MusterEvent<MusterEvents[N]>) => boolean, timeoutMs?: number): Promise<MusterEvent<MusterEvents[N]>>;
  waitFor(name: string, predicate?: (event: MusterEvent) => boolean, timeoutMs?: number): Promise<MusterEvent>;
}

/** Records the host's bus events through `ctx.events.subscribe`, so a test can wait on one. */
export function eventRecorder(pattern: EventPattern = "*", id = "test-event-recorder"): EventRecorder {
  const events: MusterEvent[] = [];
  const waiters = new Set<(event: MusterEvent) => void>();
  const plugin = definePlugin({
    id,
    version: "1.0.0",
    host: "^1.0.0",
    onStart: (ctx) =>
      void ctx.events.subscribe(pattern, (event) => {
        events.push(event);
        for (const waiter of [...waiters]) waiter(event);
      }),
  });
  return {
    plugin,
    events,
    // One implementation for both overloads: the typed one only narrows what the caller sees.
    waitFor: ((name: string, predicate: (event: MusterEvent) => boolean = () => true, bound = 2_000): Promise<MusterEvent> => {
      const timeoutMs = scaled(bound);
      const matches = (e: MusterEvent) => e.name === name && predicate(e);
      const found = events.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (e: MusterEvent) => {
          if (!matches(e)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(e);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for event ${name}; got ${events.map((e) => e.name).join(", ") || "none"}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    }) as EventRecorder["waitFor"],
  };
}
