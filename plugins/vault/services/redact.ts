// Replaces known secret values in outgoing text with `[redacted:<NAME>]`, by plain substring
// search. No regular expression is ever built from secret values: a pattern made of them can
// be too large for V8 ("Regular expression too large"), and that error's message is the
// pattern, i.e. every secret's plaintext.

/** Values shorter than this are not redacted: replacing "a" or "42" everywhere would mangle text. */
export const MIN_REDACTED_LENGTH = 4;

/** What replaces text when redaction itself fails: nothing of the original is kept. */
export const REDACTION_FAILED = "[redaction failed: output withheld]";

interface Span {
  start: number;
  end: number;
  name: string;
}

/** The searched forms: each value and its JSON-escaped form (for values with quotes or newlines inside JSON text). */
function formsOf(secrets: { name: string; value: string }[]): { form: string; name: string }[] {
  const byForm = new Map<string, string>();
  for (const { name, value } of secrets) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of [value, JSON.stringify(value).slice(1, -1)]) if (!byForm.has(form)) byForm.set(form, name);
  }
  // Longest first, so that where one secret contains another, the containing one names the span.
  return [...byForm].map(([form, name]) => ({ form, name })).sort((a, b) => b.form.length - a.form.length);
}

/**
 * Every stretch of `text` covered by some occurrence of a form. Occurrences of one form that
 * overlap each other ("abab" in "ababab") become one span, so the work per form is bounded
 * by the text length, however many secrets there are.
 */
function findSpans(text: string, forms: { form: string; name: string }[]): Span[] {
  const spans: Span[] = [];
  for (const { form, name } of forms) {
    if (form.length > text.length) continue;
    let last: Span | undefined;
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      if (last && at < last.end) last.end = at + form.length;
      else spans.push((last = { start: at, end: at + form.length, name }));
    }
  }
  return spans;
}

/**
 * Merges overlapping spans (secrets that share characters in the text are hidden whole, so
 * no fragment of either is left) and names each merged stretch after the secrets that
 * extend it: a secret found only inside another one's occurrence is not named.
 */
function mergeSpans(spans: Span[]): { start: number; end: number; names: string[] }[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number; names: string[] }[] = [];
  for (const span of spans) {
    const current = merged.at(-1);
    if (current && span.start < current.end) {
      if (span.end > current.end) {
        current.end = span.end;
        if (!current.names.includes(span.name)) current.names.push(span.name);
      }
    } else {
      merged.push({ start: span.start, end: span.end, names: [span.name] });
    }
  }
  return merged;
}

/**
 * Replaces every occurrence of each value (and of its JSON-escaped form) with
 * `[redacted:<name>]`; a stretch where occurrences of several secrets overlap becomes one
 * `[redacted:<A>,<B>]`. Linear in the text per searched form.
 */
export function redactValues(text: string, secrets: { name: string; value: string }[]): string {
  if (text.length === 0 || secrets.length === 0) return text;
  const spans = findSpans(text, formsOf(secrets));
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const { start, end, names } of mergeSpans(spans)) {
    parts.push(text.slice(from, start), `[redacted:${names.join(",")}]`);
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

