// What the live stream's events can be, as the plugins that publish them describe them
// (GET /api/sse/families): the page follows these instead of knowing event names itself.
import { api } from "./api.js";

/** Whether an event name matches a pattern: `*`, a prefix ending in `.*`, or the exact name. */
export function matches(pattern, name) {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return name.startsWith(pattern.slice(0, -1));
  return name === pattern;
}

export function matchesAny(patterns, name) {
  return patterns.some((pattern) => matches(pattern, name));
}

/** The families, or none when this server has no live stream (the page then has no live updates anyway). */
export async function loadEventFamilies() {
  try {
    const { families } = await api.get("/api/sse/families");
    return families;
  } catch {
    return [];
  }
}

/** The patterns of the events one plugin publishes. */
export function patternsOf(families, plugin) {
  return families.filter((family) => family.plugin === plugin).map((family) => family.pattern);
}

/** The description of the family an event belongs to, if any. */
export function describe(families, name) {
  return families.find((family) => matches(family.pattern, name))?.description;
}
