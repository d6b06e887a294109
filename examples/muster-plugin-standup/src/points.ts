// The built-in plugins' points this plugin contributes to. A package outside Muster's
// repository cannot import plugins/dashboard or plugins/metrics, so it declares each point
// again by its id: the host matches points by id, and @muster/plugin publishes their value
// types. A mistyped name stops the start (PLUGIN_CONTRIBUTION_UNKNOWN_POINT).
import { extensionPoint, type ConsolePage, type ConsolePanel, type MetricSource } from "@muster/plugin";

/** Owned by the dashboard plugin: panels of the console (`GET /dashboard/panels`). */
export const CONSOLE_PANELS = extensionPoint<ConsolePanel>("dashboard.panels");

/** Owned by the dashboard plugin: pages of the console (`GET /dashboard/pages`, opened at `/console/<id>`). */
export const CONSOLE_PAGES = extensionPoint<ConsolePage>("dashboard.pages");

/** Owned by the metrics plugin: families of `GET /metrics`. */
export const METRIC_SOURCES = extensionPoint<MetricSource>("metrics.sources");
