// Small helpers plugins and the host share, so each exists once.
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The first `max` UTF-16 units of `text`, cut on a code point boundary so a 4-byte
 * character is never split into a lone surrogate.
 *
 * @example clip("a😀", 2) // "a"
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Whether a value contains itself (YAML aliases can build such data, which cannot be
 * serialised). Walks arrays, Maps and plain objects.
 */
export function isCircular(value: unknown, ancestors = new Set<object>()): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  const children = Array.isArray(value) ? value : value instanceof Map ? [...value.values()] : Object.values(value);
  const found = children.some((child) => isCircular(child, ancestors));
  ancestors.delete(value);
  return found;
}

/**
 * Compares a secret with a candidate in constant time. Both are hashed first, so neither
 * their contents nor their lengths show in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}
