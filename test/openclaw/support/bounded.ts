// Every test of the suite is bounded: a run that hangs (a reply that never comes) fails
// with the test's name instead of holding the whole suite until its hard cap.
import type { Test } from "uvu";
import { scaled } from "../../../core/plugin-api/testing/time-scale.ts";

/** Chat through the real gateway takes 5-15 s on two cores even with an instant model. */
export const CHAT_TEST_MS = 60_000;

export function within<T>(ms: number, label: string, run: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: not finished within ${ms / 1000} s`)), ms);
    run().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Registers `name` on `test`, failing it when it runs longer than `ms` stretched by the load
 * (a real gateway's start alone takes up to two minutes on a loaded machine; the assertions
 * inside, such as "connected within 2 s of /readyz", stay as they are).
 */
export function boundedTest(test: Test, name: string, ms: number, run: () => Promise<void>): void {
  test(name, () => within(scaled(ms), name, run));
}
