// The next instant a cron schedule fires in an IANA time zone, from Intl alone.
//
// Wall-clock times are handled as "local time read as UTC" milliseconds. DST (docs/crons.md):
// a wall time the clock skips (spring forward) fires once, at the same distance after the
// jump (02:30 in a 02:00→03:00 gap fires at 03:30); a wall time that occurs twice (fall
// back) fires once, at its first occurrence.
import type { CronSchedule } from "./cron-expression.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Beyond this a schedule is treated as never firing (for example `0 0 30 2 *`). */
const HORIZON_DAYS = 366 * 5;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether Intl knows the zone. */
export function isKnownTimeZone(tz: string): boolean {
  if (!tz || tz.length > 100) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function formattedWall(ms: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(ms)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

// Offsets cached per zone and quarter hour: every modern zone changes offset on a quarter
// hour, so one Intl call answers for the whole bucket (rebuilding 1,000 schedules at start-up
// stays far below 200 ms).
const QUARTER = 900_000;
const offsetCache = new Map<string, Map<number, number>>();

function offsetAt(ms: number, tz: string): number {
  if (tz === "UTC" || tz === "Etc/UTC") return 0;
  let cache = offsetCache.get(tz);
  if (!cache) offsetCache.set(tz, (cache = new Map()));
  const bucket = Math.floor(ms / QUARTER);
  let offset = cache.get(bucket);
  if (offset === undefined) {
    if (cache.size > 50_000) cache.clear();
    const start = bucket * QUARTER;
    offset = formattedWall(start, tz) - start;
    cache.set(bucket, offset);
  }
  return offset;
}

/** The zone's wall-clock time at instant `ms`, as "local time read as UTC" ms. */
export function wallTime(ms: number, tz: string): number {
  return ms + offsetAt(ms, tz);
}

/** The instant a wall time means in `tz` under the policy above. */
export function instantOf(wall: number, tz: string): number {
  // Offsets on either side of any transition near this wall time.
  const before = offsetAt(wall - 3 * 3_600_000, tz);
  const after = offsetAt(wall + 3 * 3_600_000, tz);
  const valid = [wall - before, wall - after].filter((t) => wallTime(t, tz) === wall).sort((a, b) => a - b);
  // No valid instant: the wall time is in a gap; read it with the offset before the jump.
  return valid[0] ?? wall - before;
}

function dayMatches(s: CronSchedule, wallDay: Date): boolean {
  if (!s.months.has(wallDay.getUTCMonth() + 1)) return false;
  const dom = s.daysOfMonth.has(wallDay.getUTCDate());
  const dow = s.daysOfWeek.has(wallDay.getUTCDay());
  if (s.anyDayOfMonth && s.anyDayOfWeek) return true;
  if (s.anyDayOfMonth) return dow;
  if (s.anyDayOfWeek) return dom;
  return dom || dow;
}

/** The first fire instant strictly after `afterMs`, or null when none within five years. */
export function nextFire(s: CronSchedule, tz: string, afterMs: number): number | null {
  const hours = [...s.hours].sort((a, b) => a - b);
  const minutes = [...s.minutes].sort((a, b) => a - b);
  // Start at the wall minute after `afterMs`; a gap can map a later wall time to an instant
  // at or before `afterMs`, so candidates are also checked against it.
  const startWall = Math.floor(wallTime(afterMs, tz) / MINUTE) * MINUTE + MINUTE;
  let day = Math.floor(startWall / DAY) * DAY;
  for (let i = 0; i <= HORIZON_DAYS; i++, day += DAY) {
    if (!dayMatches(s, new Date(day))) continue;
    for (const h of hours) {
      for (const m of minutes) {
        const wall = day + h * 3_600_000 + m * MINUTE;
        if (wall < startWall) continue;
        const t = instantOf(wall, tz);
        if (t > afterMs) return t;
      }
    }
  }
  return null;
}
