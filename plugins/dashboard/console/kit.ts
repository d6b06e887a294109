// `@muster/console`: what a console page or panel imports (through the console's import map),
// whether built in or from a third-party plugin. Pages are Preact components written with
// `html` (htm); they call the API with the typed SDK client `muster`, follow the live stream
// with `useLive`/`useResource`, and read their place with `useRoute`. docs/console.md.
import { render, type ComponentType } from "preact";
import { html } from "./html.ts";

export { html };
export { render, type ComponentChildren, type ComponentType, type VNode } from "preact";
export { useState, useEffect, useLayoutEffect, useMemo, useRef, useCallback, useReducer } from "preact/hooks";
export { muster, errorText, type Muster } from "./client.ts";
export { isMusterApiError, MusterApiError } from "@muster/sdk/client";
export { signedIn } from "./session.ts";
/** Untyped same-origin JSON calls (`api.get("/api/standup")`) for routes the SDK does not know, such as a third-party plugin's. */
import { panelKit } from "./panel-kit.ts";
export const api = panelKit.api;
export { useLive, subscribe, matches, type LiveMessage, type LiveEvent, type LiveFileChange } from "./live.ts";
export { useResource, type Resource, type ResourceOptions } from "./resource.ts";
export { useRoute, navigate, pageHref, type Route } from "./router.ts";
export { PageHeader, Section, ErrorNote, Empty, Badge, Time, ago, type Tone } from "./ui/basics.ts";
export { ActionButton, Form, Field, type ActionButtonProps, type FormProps, type FieldProps } from "./ui/actions.ts";
export { DataTable, type Column, type DataTableProps } from "./ui/data-table.ts";

/** What a page or panel module's default export receives besides its element. */
export interface MountedModule {
  unmount?: () => void;
  refresh?: () => unknown;
}

/**
 * The default export of a page module written as a component:
 * `export default mountComponent(StandupPage)`.
 */
export function mountComponent(Component: ComponentType): (element: HTMLElement) => MountedModule {
  return (element) => {
    render(html`<${Component} />`, element);
    return { unmount: () => render(null, element) };
  };
}

const linked = new Set<string>();
/**
 * Adds a stylesheet (same-origin, e.g. `/dashboard/plugins/<plugin>/board.css`) to the page once;
 * call it at the top of a page module. The console's policy allows no inline styles.
 */
export function useStylesheet(href: string): void {
  if (linked.has(href)) return;
  linked.add(href);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}
export { Chart, seriesColour, type ChartProps, type ChartSeries } from "./ui/chart.ts";
export { postEventStream, type EventStreamOptions } from "./ui/event-stream.ts";
export { ApprovalLink } from "./ui/approval-link.ts";
