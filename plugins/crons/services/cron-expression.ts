// Five-field cron expressions (minute hour day-of-month month day-of-week), parsed into the
// sets of values each field allows. Accepted per field: `*`, `n`, `a-b`, `*/s`, `a-b/s`,
// `n/s` and comma lists of those; month and weekday names (`jan`, `mon`); weekday 7 = Sunday.

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday. */
  daysOfWeek: ReadonlySet<number>;
  /** Whether the field was `*`: classic cron ORs day-of-month and day-of-week when both are restricted. */
  anyDayOfMonth: boolean;
  anyDayOfWeek: boolean;
}

export class CronSyntaxError extends Error {}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  namesFrom?: number;
}

const FIELDS: FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: "day of week", min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

function value(text: string, spec: FieldSpec): number {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + spec.namesFrom!;
  if (!/^\d{1,2}$/.test(text)) throw new CronSyntaxError(`${spec.name}: "${text}" is not a number`);
  const n = Number(text);
  if (n < spec.min || n > spec.max) throw new CronSyntaxError(`${spec.name}: ${n} is outside ${spec.min}-${spec.max}`);
  return n;
}

function parseField(text: string, spec: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^([^/]+)(?:\/(\d{1,2}))?$/.exec(part);
    if (!match) throw new CronSyntaxError(`${spec.name}: "${part}" is not a value, range or step`);
    const [, range, stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1 || step > spec.max) throw new CronSyntaxError(`${spec.name}: step ${stepText} is outside 1-${spec.max}`);
    let from: number;
    let to: number;
    if (range === "*") [from, to] = [spec.min, spec.max];
    else if (range!.includes("-")) {
      const [a, b, ...rest] = range!.split("-");
      if (rest.length || a === undefined || b === undefined) throw new CronSyntaxError(`${spec.name}: "${range}" is not a range`);
      [from, to] = [value(a, spec), value(b, spec)];
      if (from > to) throw new CronSyntaxError(`${spec.name}: range ${range} runs backwards`);
    } else {
      from = value(range!, spec);
      // `n/s` means from n to the end of the field.
      to = stepText === undefined ? from : spec.max;
    }
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

/** Parses exactly five fields; throws CronSyntaxError with a reason otherwise. */
export function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || fields[0] === "") throw new CronSyntaxError(`expected 5 fields (minute hour day-of-month month day-of-week), got ${fields[0] === "" ? 0 : fields.length}`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = fields.map((f, i) => parseField(f, FIELDS[i]!)) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (daysOfWeek.delete(7)) daysOfWeek.add(0);
  return { minutes, hours, daysOfMonth, months, daysOfWeek, anyDayOfMonth: fields[2] === "*", anyDayOfWeek: fields[4] === "*" };
}
