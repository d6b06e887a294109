// In-process event bus. Delivery is asynchronous (after the publisher's current task) so
// a publisher never waits on, or fails because of, a subscriber.
import type { Logger } from "pino";
import type { EventBus, EventHandler, MusterEvent } from "../plugin-api/events.ts";

const NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-zA-Z0-9_-]*)+$/;

export function createEventBus(logger: Logger): EventBus & { clear(): void } {
  const exact = new Map<string, Set<EventHandler>>();
  const prefixes = new Map<string, Set<EventHandler>>();
  const all = new Set<EventHandler>();

  const deliver = (handler: EventHandler, event: MusterEvent) => {
    try {
      const result = handler(event);
      if (result && typeof (result as Promise<void>).catch === "function") {
        (result as Promise<void>).catch((error) => logger.error({ err: error, event: event.name }, "event handler failed"));
      }
    } catch (error) {
      logger.error({ err: error, event: event.name }, "event handler failed");
    }
  };

  return {
    publish(name, payload, options = {}) {
      if (!NAME.test(name)) throw new Error(`Event name "${name}" must look like <plugin>.<entity>.<verb>`);
      const event: MusterEvent = { name, payload, timestamp: Date.now(), public: options.public ?? false };
      const targets: EventHandler[] = [...(exact.get(name) ?? []), ...all];
      for (const [prefix, handlers] of prefixes) if (name.startsWith(prefix)) targets.push(...handlers);
      if (targets.length === 0) return;
      queueMicrotask(() => {
        for (const handler of targets) deliver(handler, event);
      });
    },
    // One implementation behind both typed overloads (exact name, or `*`/`prefix.*`).
    subscribe(pattern: string, handler: EventHandler<any>) {
      let set: Set<EventHandler>;
      if (pattern === "*") set = all;
      else if (pattern.endsWith(".*")) {
        const prefix = pattern.slice(0, -1);
        set = prefixes.get(prefix) ?? new Set();
        prefixes.set(prefix, set);
      } else {
        set = exact.get(pattern) ?? new Set();
        exact.set(pattern, set);
      }
      set.add(handler);
      return () => void set.delete(handler);
    },
    clear() {
      exact.clear();
      prefixes.clear();
      all.clear();
    },
  };
}
