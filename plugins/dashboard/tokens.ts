import { extensionPoint } from "@muster/plugin";

/**
 * A panel a plugin adds to the console: a small ES module that the dashboard serves at
 * `/dashboard/plugins/<plugin>/<id>.js` and loads into its own region (`title` as heading and
 * accessible name), refreshed on the named live-stream events and every 30 seconds.
 *
 * The module's default export mounts the panel: `export default function mount(element, kit)`
 * draws into `element` and returns `{ refresh }` (or the refresh function itself), which the
 * page calls once at load and again on every refresh. `kit` holds the page's helpers, so a
 * panel never imports the dashboard's files: `kit.api.get(path)` (same-origin fetch with the
 * session; throws `kit.ApiError` with the API's `code`), `kit.h(tag, props, ...children)`
 * (every string child is a text node: agent-written text is never HTML), `kit.time(when)`
 * (a relative `<time>`), `kit.errorText(error)` (`CODE: message`).
 *
 * @example
 * contribute(CONSOLE_PANELS, { id: "notes", title: "Notes", module: fileURLToPath(new URL("./console/notes-panel.js", import.meta.url)), events: ["notes.*"] })
 */
export interface ConsolePanel {
  /** kebab-case, unique within the contributing plugin. */
  id: string;
  /** The panel's heading and the accessible name of its region. */
  title: string;
  /** Absolute path of the module file (use `fileURLToPath(new URL("./panel.js", import.meta.url))`). */
  module: string;
  /** Live-stream event names (`work.task.created`) or patterns (`work.*`) the panel refreshes on. */
  events?: string[];
}

/** Where plugins contribute console panels (`contribute(CONSOLE_PANELS, {...})`). */
export const CONSOLE_PANELS = extensionPoint<ConsolePanel>("dashboard.panels");
