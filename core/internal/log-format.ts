// One pino JSON line as a line for people at a terminal:
//   12:04:05.123 INFO  [work] task created  id=3f2… status=done
// Context fields stay key=value (DESIGN §7: values are fields, never in the message); an
// error prints its message and stack below the line.
const LEVELS: Record<number, { name: string; color: number }> = {
  10: { name: "TRACE", color: 90 },
  20: { name: "DEBUG", color: 36 },
  30: { name: "INFO ", color: 32 },
  40: { name: "WARN ", color: 33 },
  50: { name: "ERROR", color: 31 },
  60: { name: "FATAL", color: 35 },
};
/** Fields shown in the line's fixed parts, or noise at a terminal. */
const SHOWN = new Set(["level", "time", "msg", "service", "plugin", "component", "pid", "hostname", "err"]);

export function formatLogLine(line: string, options: { colors: boolean }): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith("\n") ? line : `${line}\n`;
  }
  const paint = (code: number, text: string) => (options.colors ? `\x1b[${code}m${text}\x1b[0m` : text);
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level).toUpperCase().padEnd(5), color: 0 };
  const time = typeof entry.time === "number" ? new Date(entry.time).toISOString().slice(11, 23) : "";
  const source = entry.plugin ?? entry.component;
  const fields = Object.entries(entry)
    .filter(([key, value]) => !SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${paint(90, `${key}=`)}${typeof value === "string" ? value : JSON.stringify(value)}`);
  const head = [paint(90, time), paint(level.color, level.name), source ? paint(36, `[${String(source)}]`) : "", String(entry.msg ?? "")].filter(Boolean).join(" ");
  let out = fields.length > 0 ? `${head}  ${fields.join(" ")}` : head;
  const err = entry.err as { message?: string; stack?: string; type?: string } | undefined;
  if (err) out += `\n    ${(err.stack ?? `${err.type ?? "Error"}: ${err.message ?? ""}`).split("\n").join("\n    ")}`;
  return `${out}\n`;
}
