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

/** Deepest nesting of a JSON credential whose strings are collected (credentials are shallow; this bounds the walk). */
const MAX_CREDENTIAL_DEPTH = 16;

/**
 * The parts of a secret value that must never be shown: the value itself and, when it is a
 * JSON object or array (a credential such as `{"accessToken":"…","secret":"…"}`), every
 * string inside it, at any depth. A tool that prints only the inner token would otherwise
 * escape whole-value redaction. Parts shorter than {@link MIN_REDACTED_LENGTH} are left
 * out; longest first, so a part inside another is not cut out of it first.
 */
export function credentialParts(value: string | null): string[] {
  if (!value) return [];
  const parts = new Set([value]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    // Not JSON: the whole value is the credential.
  }
  const walk = (node: unknown, depth: number): void => {
    if (typeof node === "string") parts.add(node);
    else if (node !== null && typeof node === "object" && depth < MAX_CREDENTIAL_DEPTH) for (const child of Object.values(node)) walk(child, depth + 1);
  };
  if (parsed !== null && typeof parsed === "object") walk(parsed, 0);
  return [...parts].filter((p) => p.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length);
}

/** The searched forms: each credential part and its JSON-escaped form (for values with quotes or newlines inside JSON text). */
function formsOf(secrets: { name: string; value: string }[]): { form: string; name: string }[] {
  const byForm = new Map<string, string>();
  for (const { name, value } of secrets) {
    for (const part of credentialParts(value)) {
      for (const form of [part, JSON.stringify(part).slice(1, -1)]) if (!byForm.has(form)) byForm.set(form, name);
    }
  }
  // Longest first, so that where one secret contains another, the containing one names the span.
  return [...byForm].map(([form, name]) => ({ form, name })).sort((a, b) => b.form.length - a.form.length);
}

/** KMP's failure table: entry i is the length of the longest proper prefix of `form[0..i]` that is also its suffix. */
function failureTable(form: string): Int32Array {
  const fail = new Int32Array(form.length);
  for (let i = 1, k = 0; i < form.length; i++) {
    while (k > 0 && form.charCodeAt(i) !== form.charCodeAt(k)) k = fail[k - 1]!;
    if (form.charCodeAt(i) === form.charCodeAt(k)) k++;
    fail[i] = k;
  }
  return fail;
}

/**
 * Calls `found` with the start of every occurrence of `form` in `text`, in order, from
 * `first` (an occurrence). Two occurrences can overlap only when the form has a border (a
 * prefix that is also a suffix, as in "abab" or "aaaa"); without one the next search starts
 * after the occurrence. With one, searching again one character later re-compares almost the
 * whole form at every position (a 64 KiB run of one letter over 1 MiB of it: minutes), so
 * the rest is a KMP scan, linear in the text.
 */
function eachOccurrence(text: string, form: string, first: number, found: (at: number) => void): void {
  const m = form.length;
  const fail = failureTable(form);
  if (fail[m - 1] === 0) {
    for (let at = first; at !== -1; at = text.indexOf(form, at + m)) found(at);
    return;
  }
  for (let i = first, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== form.charCodeAt(k)) k = fail[k - 1]!;
    if (c === form.charCodeAt(k)) k++;
    if (k === m) {
      found(i - m + 1);
      k = fail[m - 1]!;
    }
  }
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
    const first = text.indexOf(form);
    if (first === -1) continue;
    let last: Span | undefined;
    eachOccurrence(text, form, first, (at) => {
      if (last && at < last.end) last.end = at + form.length;
      else spans.push((last = { start: at, end: at + form.length, name }));
    });
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

