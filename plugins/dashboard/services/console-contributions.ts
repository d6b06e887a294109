// The panels and pages plugins contribute to the console (CONSOLE_PANELS, CONSOLE_PAGES):
// checked at start-up, and the directory of each module added to the served files under
// `plugins/<plugin>/`, so a page can import its own components relatively and nothing else
// of the plugin's disk is reachable.
import { dirname, basename } from "node:path";
import type { Contributed } from "@muster/plugin";
import { dashboardErrors } from "../errors.ts";
import type { ConsolePage, ConsolePanel } from "../tokens.ts";
import { bundleEntries } from "./console-bundles.ts";
import { addDirectory, type ServedFile } from "./console-files.ts";

const ID = /^[a-z][a-z0-9-]*$/;
/** An event name or a prefix ending in `.*`, as the live stream's names are spelt; or `*`. */
const EVENT = /^(?:\*|[a-z][a-z0-9-]*(?:\.[a-zA-Z0-9_-]+)*(?:\.\*)?)$/;
const MODULE = /^[a-z][a-z0-9-]*\.(?:ts|js)$/;
const GROUPS = ["crew", "work", "knowledge", "outside", "settings"];
/**
 * Code-unit order: the same on every machine whatever its locale, and no ICU collator loaded
 * while the server starts (the first `localeCompare` of a process costs ~7 ms).
 */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One panel as `GET /dashboard/panels` lists it. */
export interface ListedPanel {
  plugin: string;
  id: string;
  title: string;
  /** Where the page imports it from: `/dashboard/plugins/<plugin>/<file>`. */
  module: string;
  events: string[];
}

/** One page as `GET /dashboard/pages` lists it. */
export interface ListedPage extends ListedPanel {
  /** `/console/<id>`. */
  path: string;
  group: string;
  order: number;
}

export interface ConsoleContributions {
  panels: ListedPanel[];
  pages: ListedPage[];
}

type Invalid = (reason: string) => Error;

function checkCommon(value: ConsolePanel | ConsolePage, invalid: Invalid): void {
  const { id, title, module, events = [] } = value;
  if (typeof id !== "string" || !ID.test(id)) throw invalid("the id must be kebab-case");
  if (typeof title !== "string" || !title.trim()) throw invalid("the title must not be empty");
  if (!Array.isArray(events) || !events.every((e) => typeof e === "string" && EVENT.test(e))) throw invalid("events must be event names or prefixes ending in .*");
  if (typeof module !== "string" || !MODULE.test(basename(module))) throw invalid("the module must be a kebab-case .ts or .js file");
}

/**
 * Checks every contribution and adds its module's directory to `files`; throws
 * `DASHBOARD_PANEL_INVALID` / `DASHBOARD_PAGE_INVALID` for the first bad one.
 */
export function loadConsoleContributions(panels: readonly Contributed<ConsolePanel>[], pages: readonly Contributed<ConsolePage>[], files: Map<string, ServedFile>): ConsoleContributions {
  const dirOf = new Map<string, string>(); // plugin → the one directory its console modules live in
  const serve = (plugin: string, module: string, invalid: Invalid): string => {
    const dir = dirname(module);
    const known = dirOf.get(plugin);
    if (known && known !== dir) throw invalid(`its modules must share one directory (${known})`);
    if (!known) {
      try {
        addDirectory(files, `plugins/${plugin}/`, dir, 1);
      } catch (error) {
        throw invalid(`its directory cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
      dirOf.set(plugin, dir);
    }
    const key = `plugins/${plugin}/${basename(module)}`;
    if (!files.has(key)) throw invalid("its module cannot be read");
    return `/dashboard/${key}`;
  };

  const listedPanels: ListedPanel[] = [];
  const seenPanels = new Set<string>();
  for (const { plugin, value } of panels) {
    const invalid: Invalid = (reason) => dashboardErrors.DASHBOARD_PANEL_INVALID({ plugin, id: String(value?.id), reason });
    checkCommon(value ?? ({} as ConsolePanel), invalid);
    if (seenPanels.has(`${plugin}/${value.id}`)) throw invalid("the plugin contributes two panels with this id");
    seenPanels.add(`${plugin}/${value.id}`);
    listedPanels.push({ plugin, id: value.id, title: value.title.trim(), module: serve(plugin, value.module, invalid), events: [...(value.events ?? [])] });
  }

  const listedPages: ListedPage[] = [];
  for (const { plugin, value } of pages) {
    const invalid: Invalid = (reason) => dashboardErrors.DASHBOARD_PAGE_INVALID({ plugin, id: String(value?.id), reason });
    checkCommon(value ?? ({} as ConsolePage), invalid);
    const taken = listedPages.find((page) => page.id === value.id);
    if (taken) throw invalid(`the page id is taken by plugin "${taken.plugin}"`);
    const group = value.group ?? "settings";
    if (typeof group !== "string" || !ID.test(group)) throw invalid("the group must be kebab-case");
    const order = value.order ?? 100;
    if (typeof order !== "number" || !Number.isFinite(order)) throw invalid("the order must be a number");
    listedPages.push({ plugin, id: value.id, title: value.title.trim(), module: serve(plugin, value.module, invalid), events: [...(value.events ?? [])], path: `/console/${value.id}`, group, order });
  }
  // Each plugin's TypeScript pages and panels as one build (console-bundles.ts); `.js` modules
  // are a plugin's own browser JavaScript, served as written.
  for (const [plugin, dir] of dirOf) {
    const entries = [...listedPanels, ...listedPages].filter((listed) => listed.plugin === plugin && listed.module.endsWith(".ts")).map((listed) => basename(listed.module));
    bundleEntries(files, `plugins/${plugin}/`, dir, [...new Set(entries)]);
  }
  const rank = (group: string) => (GROUPS.includes(group) ? GROUPS.indexOf(group) : GROUPS.length);
  listedPages.sort((a, b) => rank(a.group) - rank(b.group) || byText(a.group, b.group) || a.order - b.order || byText(a.title, b.title));
  return { panels: listedPanels, pages: listedPages };
}
