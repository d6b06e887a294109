// A strict reader of the Prometheus text format 0.0.4 for the tests: every sample must
// belong to a family declared by `# HELP` and `# TYPE` before it, label values are unescaped,
// and a malformed line fails the test instead of being skipped.

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  samples: ParsedSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_m, c: string) => (c === "n" ? "\n" : c));
}

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`malformed labels: ${text}`);
    if (match[1]! in labels) throw new Error(`duplicate label ${match[1]}`);
    labels[match[1]!] = unescape(match[2]!);
  }
  return labels;
}

function parseValue(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  const value = Number(text);
  if (!/^-?[0-9.eE+-]+$/.test(text) || Number.isNaN(value)) throw new Error(`malformed value ${text}`);
  return value;
}

const familyOf = (name: string, families: Map<string, ParsedFamily>) => {
  if (families.has(name)) return families.get(name)!;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  const family = families.get(base);
  return family?.type === "histogram" ? family : undefined;
};

export function parseExposition(text: string): Map<string, ParsedFamily> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  const families = new Map<string, ParsedFamily>();
  let pendingHelp: { name: string; help: string } | null = null;
  for (const line of text.slice(0, -1).split("\n")) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (help) {
      pendingHelp = { name: help[1]!, help: unescape(help[2]!) };
    } else if (type) {
      if (families.has(type[1]!)) throw new Error(`family ${type[1]} declared twice`);
      if (!pendingHelp || pendingHelp.name !== type[1]) throw new Error(`# TYPE ${type[1]} without its # HELP just before`);
      families.set(type[1]!, { name: type[1]!, help: pendingHelp.help, type: type[2]!, samples: [] });
    } else {
      const sample = SAMPLE.exec(line);
      if (!sample) throw new Error(`malformed line: ${JSON.stringify(line)}`);
      const family = familyOf(sample[1]!, families);
      if (!family) throw new Error(`sample ${sample[1]} before its # TYPE`);
      family.samples.push({ name: sample[1]!, labels: parseLabels(sample[2]), value: parseValue(sample[3]!) });
    }
  }
  return families;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export function sampleValue(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = familyOf(name, families);
  const matches = family?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? [];
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}
