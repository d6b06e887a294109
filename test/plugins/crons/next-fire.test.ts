// The five-field parser and the next-fire calculator on their own: ranges, steps, names,
// day-of-month OR day-of-week, zones with half- and quarter-hour offsets, DST gaps and overlaps.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { CronSyntaxError, parseCron } from "../../../plugins/crons/services/cron-expression.ts";
import { isKnownTimeZone, nextFire } from "../../../plugins/crons/services/next-fire.ts";

const test = suite("cron next fire");
const next = (expr: string, tz: string, from: string) => {
  const t = nextFire(parseCron(expr), tz, Date.parse(from));
  return t === null ? null : new Date(t).toISOString();
};

test("refuses anything but five valid fields", () => {
  for (const bad of ["* * * * * *", "* * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * 32 * *", "* * * 13 *", "* * * * 8", "*/0 * * * *", "5-1 * * * *", "1,,2 * * * *", "-1 * * * *", "a b c d e", "", "@hourly", "1.5 * * * *"]) {
    assert.throws(() => parseCron(bad), (e: unknown) => e instanceof CronSyntaxError, bad);
  }
});

test("steps, ranges, lists, names, 7 = Sunday", () => {
  assert.is(next("*/15 * * * *", "UTC", "2026-01-01T10:07:00Z"), "2026-01-01T10:15:00.000Z");
  assert.is(next("5,50 8-9 * * *", "UTC", "2026-01-01T08:06:00Z"), "2026-01-01T08:50:00.000Z");
  assert.is(next("0 12 * jan-mar sun", "UTC", "2026-01-01T00:00:00Z"), "2026-01-04T12:00:00.000Z"); // 4 Jan 2026 is a Sunday
  assert.is(next("0 12 * * 7", "UTC", "2026-01-01T00:00:00Z"), "2026-01-04T12:00:00.000Z");
  assert.is(next("10/20 * * * *", "UTC", "2026-01-01T00:31:00Z"), "2026-01-01T00:50:00.000Z");
});

test("day of month OR day of week when both are restricted", () => {
  // 1st of the month or a Monday: from Wed 31 Dec 2025 the next is Thu 1 Jan.
  assert.is(next("0 0 1 * mon", "UTC", "2025-12-31T00:00:00Z"), "2026-01-01T00:00:00.000Z");
  assert.is(next("0 0 1 * mon", "UTC", "2026-01-01T00:00:00Z"), "2026-01-05T00:00:00.000Z");
});

test("strictly after the given instant; never-firing schedules give null", () => {
  assert.is(next("0 9 * * *", "UTC", "2026-01-01T09:00:00Z"), "2026-01-02T09:00:00.000Z");
  assert.is(next("0 0 30 2 *", "UTC", "2026-01-01T00:00:00Z"), null);
  assert.is(next("0 0 29 2 *", "UTC", "2026-03-01T00:00:00Z"), "2028-02-29T00:00:00.000Z");
});

test("zones: half- and quarter-hour offsets", () => {
  assert.is(next("0 9 * * *", "Asia/Kolkata", "2026-01-01T00:00:00Z"), "2026-01-01T03:30:00.000Z");
  assert.is(next("0 9 * * *", "Asia/Kathmandu", "2026-01-01T00:00:00Z"), "2026-01-01T03:15:00.000Z");
  assert.ok(isKnownTimeZone("Europe/Paris"));
  assert.not.ok(isKnownTimeZone("Mars/Olympus"));
  assert.not.ok(isKnownTimeZone(""));
});

test("DST gap (Paris, 29 Mar 2026 02:00→03:00): 02:30 fires once, at 03:30 local", () => {
  assert.is(next("30 2 * * *", "Europe/Paris", "2026-03-28T12:00:00Z"), "2026-03-29T01:30:00.000Z");
  assert.is(next("30 2 * * *", "Europe/Paris", "2026-03-29T01:30:00Z"), "2026-03-30T00:30:00.000Z");
  // Every-minute jobs go straight from 01:59 CET to 03:00 CEST.
  assert.is(next("* * * * *", "Europe/Paris", "2026-03-29T00:59:00Z"), "2026-03-29T01:00:00.000Z");
});

test("DST overlap (Paris, 25 Oct 2026 03:00→02:00): 02:30 fires once, at its first occurrence", () => {
  assert.is(next("30 2 * * *", "Europe/Paris", "2026-10-24T12:00:00Z"), "2026-10-25T00:30:00.000Z");
  assert.is(next("30 2 * * *", "Europe/Paris", "2026-10-25T00:30:00Z"), "2026-10-26T01:30:00.000Z");
  // New York, 1 Nov 2026: 01:30 EDT (05:30Z) only, not 01:30 EST (06:30Z).
  assert.is(next("30 1 * * *", "America/New_York", "2026-11-01T00:00:00Z"), "2026-11-01T05:30:00.000Z");
  assert.is(next("30 1 * * *", "America/New_York", "2026-11-01T05:30:00Z"), "2026-11-02T06:30:00.000Z");
});

test.run();
