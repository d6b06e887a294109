// The console's place is its URL: `/` is home, `/console/<page>/<rest…>` a page. Links inside
// the console change the place without reloading (history.pushState); the back button and a
// reload land on the same place because the server serves the console at every such address.
import { useEffect, useState } from "preact/hooks";

export interface Route {
  /** The page id (`""` for home). */
  page: string;
  /** The path segments after the page id, decoded. */
  rest: string[];
  query: URLSearchParams;
  /** `location.pathname + location.search`. */
  href: string;
}

const listeners = new Set<(route: Route) => void>();

export function currentRoute(): Route {
  const parts = location.pathname.split("/").filter(Boolean).map((part) => decodeURIComponent(part));
  const page = parts[0] === "console" ? (parts[1] ?? "") : "";
  return { page, rest: parts[0] === "console" ? parts.slice(2) : [], query: new URLSearchParams(location.search), href: location.pathname + location.search };
}

function changed(): void {
  const route = currentRoute();
  for (const listener of listeners) listener(route);
}

/** Goes to `href` (same origin) without a reload; `replace` keeps the history entry. */
export function navigate(href: string, { replace = false } = {}): void {
  const url = new URL(href, location.origin);
  if (url.origin !== location.origin) return void (location.href = url.href);
  const next = url.pathname + url.search + url.hash;
  if (next === location.pathname + location.search + location.hash) return;
  if (replace) history.replaceState(null, "", next);
  else history.pushState(null, "", next);
  changed();
}

/** `/console/<page>/<rest…>` with each part encoded. */
export function pageHref(page: string, ...rest: string[]): string {
  return `/console/${[page, ...rest].map(encodeURIComponent).join("/")}`;
}

/** Clicks on same-origin links are handled here instead of reloading the page. */
export function installLinkHandling(): void {
  addEventListener("popstate", changed);
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || link.target || link.hasAttribute("download") || link.origin !== location.origin) return;
    if (!(link.pathname === "/" || link.pathname.startsWith("/console/"))) return;
    event.preventDefault();
    navigate(link.pathname + link.search + link.hash);
  });
}

/** Hook: the current place, re-rendering on every change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    listeners.add(setRoute);
    return () => void listeners.delete(setRoute);
  }, []);
  return route;
}
