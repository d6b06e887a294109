// The families of public events other plugins say they publish (STREAM_EVENT_FAMILIES),
// checked once at start-up: a family names its own plugin's events only, so one plugin can
// never claim (or hide behind) another's names.
import type { Contributed } from "@muster/plugin";
import { streamErrors } from "../errors.ts";
import type { EventFamily } from "../tokens.ts";

/** An exact name or a prefix ending in `.*`, each part as event names spell them (`work.task.*`, `approvals.approval.execution_failed`). */
const PATTERN = /^[a-z][a-z0-9-]*(?:\.[a-zA-Z0-9_-]+)*(?:\.\*)?$/;

/** One family as `GET /api/sse/families` lists it. */
export interface ListedFamily extends EventFamily {
  plugin: string;
}

/** The contributed families in plugin order; throws `STREAM_EVENT_FAMILY_INVALID` for one that is not its plugin's own. */
export function checkedFamilies(contributed: readonly Contributed<EventFamily>[]): ListedFamily[] {
  return contributed.map(({ plugin, value }) => {
    const pattern = String(value?.pattern ?? "");
    const description = typeof value?.description === "string" ? value.description.trim() : "";
    const reason = !PATTERN.test(pattern) || !pattern.includes(".")
      ? "the pattern must be an event name or a prefix ending in .*"
      : !pattern.startsWith(`${plugin}.`)
        ? `the pattern must start with "${plugin}." (a plugin describes its own events)`
        : !description
          ? "the description must not be empty"
          : null;
    if (reason) throw streamErrors.STREAM_EVENT_FAMILY_INVALID({ plugin, pattern, reason });
    return { plugin, pattern, description };
  });
}
