// The value shapes of the extension points built-in plugins own and third-party plugins
// contribute to. The points themselves stay with their owners (plugins/dashboard/tokens.ts,
// plugins/metrics/tokens.ts), and a package outside this repository cannot import those:
// it re-declares a point by its id, typed with these shapes, and the host matches points by
// id (a name its owner does not declare fails the start with PLUGIN_CONTRIBUTION_UNKNOWN_POINT):
//
//   const CONSOLE_PANELS = extensionPoint<ConsolePanel>("dashboard.panels");
//   const METRIC_SOURCES = extensionPoint<MetricSource>("metrics.sources");
//
// Types only: nothing here runs, and the owners re-export these so both sides share one shape.

/**
 * A panel a plugin adds to the console (point `dashboard.panels`): a small browser ES module
 * that the dashboard serves at `/dashboard/plugins/<plugin>/<id>.js`, lists in
 * `GET /dashboard/panels` and loads into its own region (`title` as heading and accessible
 * name), refreshed on the named live-stream events and every 30 seconds.
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

/**
 * A page a plugin adds to the console (point `dashboard.pages`): listed in `GET /dashboard/pages`,
 * shown in the navigation under its `group`, and opened at `/console/<id>` (deeper paths such as
 * `/console/<id>/<record>` open the same page; it reads them with `useRoute()`).
 *
 * The module is a browser ES module, TypeScript (`.ts`, its types stripped when served) or
 * JavaScript. Every `.ts`/`.js`/`.css` file in the module's directory is served beside it at
 * `/dashboard/plugins/<plugin>/<file>`, so a page can import its own components relatively.
 * Bare imports resolve through the console's import map: `preact`, `preact/hooks`, `htm`,
 * `@muster/sdk/client` and `@muster/console` (the console kit: `html`, the typed `muster`
 * client, `useResource`, `useLive`, `useRoute`, components; docs/console.md).
 *
 * Its default export mounts the page, as a panel does: `export default function mount(element,
 * kit)` returning `{ unmount }` or an unmount function (the console's `mountComponent(Page)`
 * builds one for a Preact component).
 *
 * @example
 * contribute(CONSOLE_PAGES, { id: "standup", title: "Stand-up", group: "work", module: fileURLToPath(new URL("./console/standup-page.ts", import.meta.url)), events: ["standup.*"] })
 */
export interface ConsolePage {
  /** kebab-case, unique across the console: the page lives at `/console/<id>`. */
  id: string;
  /** The navigation label, the page's `<h1>` and the document title. */
  title: string;
  /** Absolute path of the module file (`.ts` or `.js`). */
  module: string;
  /** The navigation group: `crew`, `work`, `knowledge`, `outside`, `settings` (others are listed after them). */
  group?: string;
  /** Order within the group (lower first; default 100). */
  order?: number;
  /** Live-stream event names or patterns the page follows (shown in `GET /dashboard/pages`; the page subscribes with `useLive`). */
  events?: string[];
}

export type MetricType = "counter" | "gauge" | "histogram";

/** One sample of a metric family. */
export interface MetricSample {
  /** Appended to the family name (`_bucket`, `_sum`, `_count` for histograms). */
  suffix?: string;
  labels?: Record<string, string>;
  value: number;
}

/** A family of `GET /metrics` (Prometheus text exposition 0.0.4). */
export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: MetricSample[];
}

/** Families a plugin adds to `GET /metrics` (point `metrics.sources`); names should start with `muster_<plugin>_`. */
export interface MetricSource {
  /** The families as of now; called on every scrape, so keep it cheap. */
  collect(): MetricFamily[] | Promise<MetricFamily[]>;
}
