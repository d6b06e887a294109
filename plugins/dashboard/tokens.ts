import { extensionPoint } from "@muster/plugin";

/**
 * A panel a plugin adds to the console: a small ES module (a Preact + htm component as its
 * default export) that the dashboard serves at `/dashboard/plugins/<plugin>/<id>.js` and
 * loads into its own region, refreshed on the named live-stream events.
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
