// The UTC instants bounding a calendar day in an IANA time zone, from Intl alone.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether Intl knows the zone (IANA names; `UTC`). */
export function isKnownTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formatters.set(tz, f);
  }
  return f;
}

/** The zone's wall-clock time at `ms`, read as if it were UTC. */
function wallAsUtc(ms: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(ms)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** [start, end) in epoch ms of the day in `tz` that contains `ms`, and its date `YYYY-MM-DD`. */
export function zonedDay(ms: number, tz: string): { start: number; end: number; date: string } {
  const wall = wallAsUtc(ms, tz);
  const midnightWall = wall - (((wall % 86_400_000) + 86_400_000) % 86_400_000);
  const toInstant = (wallMs: number) => {
    // Two rounds settle the offset on either side of a DST change.
    let guess = wallMs - (wallAsUtc(wallMs, tz) - wallMs);
    guess = wallMs - (wallAsUtc(guess, tz) - guess);
    return guess;
  };
  return { start: toInstant(midnightWall), end: toInstant(midnightWall + 86_400_000), date: new Date(midnightWall).toISOString().slice(0, 10) };
}
