// Time bounds in tests are upper bounds for a loaded machine, not performance claims: on a busy
// 2-core CI box a 1 s wait for an event that takes 50 ms idle can run out. Every bound a test
// helper applies (waitUntil, the SSE client's next) and the few timed assertions go through
// `scaled()`. The factor is MUSTER_TEST_TIME_SCALE when set (npm test sets it once for all its
// files), else read from the load: 1 on an idle machine, up to 4 when every core is busy.
import { cpus, loadavg } from "node:os";

const MAX_SCALE = 4;

/** The factor for this machine now: 1 at or below one runnable process per core, then rising with the load. */
export function loadTimeScale(): number {
  const perCore = loadavg()[0]! / Math.max(1, cpus().length);
  return perCore <= 1 ? 1 : Math.min(MAX_SCALE, Math.ceil(perCore * 2));
}

function fromEnv(): number | null {
  const value = Number(process.env.MUSTER_TEST_TIME_SCALE);
  return Number.isFinite(value) && value >= 1 ? value : null;
}

export const TIME_SCALE = fromEnv() ?? loadTimeScale();

/** `ms` stretched by {@link TIME_SCALE}: for bounds on waits and on timed assertions. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
