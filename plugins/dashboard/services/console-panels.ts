// The panels other plugins contribute to the console (CONSOLE_PANELS): checked and read once
// at start-up, so the set of servable modules is fixed and a request can only name a
// contributed file, never a path into the rest of the disk.
import { readFileSync } from "node:fs";
import type { Contributed } from "@muster/plugin";
import { dashboardErrors } from "../errors.ts";
import type { ConsolePanel } from "../tokens.ts";
import type { StaticAsset } from "./static-assets.ts";

const ID = /^[a-z][a-z0-9-]*$/;
/** An event name or a prefix ending in `.*`, as the live stream's names are spelt; or `*`. */
const EVENT = /^(?:\*|[a-z][a-z0-9-]*(?:\.[a-zA-Z0-9_-]+)*(?:\.\*)?)$/;
const MODULE_TYPE = "application/javascript; charset=utf-8";

/** One panel as `GET /dashboard/panels` lists it. */
export interface ListedPanel {
  plugin: string;
  id: string;
  title: string;
  /** Where the page imports it from: `/dashboard/plugins/<plugin>/<id>.js`. */
  module: string;
  events: string[];
}

export interface ConsolePanels {
  listed: ListedPanel[];
  /** `<plugin>/<id>.js` → the module's contents. */
  modules: Map<string, StaticAsset>;
}

/** Checks every contribution and reads its module; throws `DASHBOARD_PANEL_INVALID` for the first bad one. */
export function loadConsolePanels(contributed: readonly Contributed<ConsolePanel>[]): ConsolePanels {
  const listed: ListedPanel[] = [];
  const modules = new Map<string, StaticAsset>();
  for (const { plugin, value } of contributed) {
    const invalid = (reason: string) => dashboardErrors.DASHBOARD_PANEL_INVALID({ plugin, id: String(value?.id), reason });
    const { id, title, module, events = [] } = value ?? ({} as ConsolePanel);
    if (typeof id !== "string" || !ID.test(id)) throw invalid("the id must be kebab-case");
    if (typeof title !== "string" || !title.trim()) throw invalid("the title must not be empty");
    if (!Array.isArray(events) || !events.every((e) => typeof e === "string" && EVENT.test(e))) throw invalid("events must be event names or prefixes ending in .*");
    const key = `${plugin}/${id}.js`;
    if (modules.has(key)) throw invalid("the plugin contributes two panels with this id");
    if (typeof module !== "string" || !module.endsWith(".js")) throw invalid("the module must be a .js file");
    let body: Buffer;
    try {
      body = readFileSync(module);
    } catch (error) {
      throw invalid(`its module cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    modules.set(key, { body, type: MODULE_TYPE });
    listed.push({ plugin, id, title: title.trim(), module: `/dashboard/plugins/${key}`, events: [...events] });
  }
  return { listed, modules };
}
