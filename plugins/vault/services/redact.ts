// Replaces known secret values in outgoing text with `[redacted:<NAME>]`.

/** Values shorter than this are not redacted: replacing "a" or "42" everywhere would mangle text. */
export const MIN_REDACTED_LENGTH = 4;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Replaces every occurrence of each value (and of its JSON-escaped form, for values with
 * quotes or newlines inside JSON text) with `[redacted:<name>]`, longest values first so a
 * secret containing another is replaced whole.
 */
export function redactValues(text: string, secrets: { name: string; value: string }[]): string {
  const byForm = new Map<string, string>();
  for (const { name, value } of secrets) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of [value, JSON.stringify(value).slice(1, -1)]) if (!byForm.has(form)) byForm.set(form, name);
  }
  if (byForm.size === 0 || text.length === 0) return text;
  const pattern = new RegExp([...byForm.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|"), "g");
  return text.replace(pattern, (match) => `[redacted:${byForm.get(match)}]`);
}
