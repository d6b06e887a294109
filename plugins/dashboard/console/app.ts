// The console's frame: the header (sign-in and live-stream state), the navigation built from
// the pages plugins contribute, and the place the URL names (home or one page).
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.ts";
import { muster } from "./client.ts";
import { Home } from "./home.ts";
import { useLiveState } from "./live.ts";
import { PageHost } from "./page-host.ts";
import { GROUP_TITLES, type ListedPage, type ListedPanel } from "./pages.ts";
import { pageHref, useRoute } from "./router.ts";
import { onSignedOut, signedIn } from "./session.ts";
import { ErrorNote, PageHeader } from "./ui/basics.ts";

const LIVE_TEXT = { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…", offline: "Offline" } as const;

function useSignedIn(): boolean {
  const [state, setState] = useState(signedIn());
  useEffect(() => onSignedOut(() => setState(false)), []);
  return state;
}

function Status() {
  const live = useLiveState();
  const isSignedIn = useSignedIn();
  return html`<div class="status">
    <span id="signin-state" class=${`pill ${isSignedIn ? "ok" : "warn"}`}>${isSignedIn ? "Signed in" : "Not signed in"}</span>
    <span id="live-state" class=${`pill ${live === "live" ? "ok" : "warn"}`} role="status">${LIVE_TEXT[live]}</span>
  </div>`;
}

function SignInBanner() {
  if (useSignedIn()) return null;
  return html`<section id="signin-banner" class="banner" aria-labelledby="signin-title">
    <h2 id="signin-title">You are not signed in</h2>
    <p>The console shows what the crew is doing, but deciding approvals, changing anything or revealing a secret needs a browser
      session. In a terminal on this computer, run <code>muster login</code> and open the link it prints (it works once, for 10
      minutes). The start-up link printed by <code>muster start</code> works too.</p>
  </section>`;
}

function Navigation({ pages, current, open }: { pages: readonly ListedPage[]; current: string; open: boolean }) {
  const groups = [...new Set(pages.map((page) => page.group))];
  const link = (href: string, title: string, active: boolean) => html`<a href=${href} aria-current=${active ? "page" : undefined}>${title}</a>`;
  return html`<nav id="console-nav" class=${`nav ${open ? "open" : ""}`} aria-label="Console">
    <ul><li>${link("/", "Home", current === "")}</li></ul>
    ${groups.map((group) => {
      const id = `nav-group-${group}`;
      return html`<div class="nav-group" key=${group}>
        <h2 id=${id}>${GROUP_TITLES[group] ?? group}</h2>
        <ul aria-labelledby=${id}>${pages.filter((page) => page.group === group).map((page) => html`<li key=${page.id}>${link(pageHref(page.id), page.title, current === page.id)}</li>`)}</ul>
      </div>`;
    })}
  </nav>`;
}

export function App() {
  const route = useRoute();
  const [pages, setPages] = useState<readonly ListedPage[] | undefined>(undefined);
  const [panels, setPanels] = useState<readonly ListedPanel[]>([]);
  const [error, setError] = useState<unknown>(undefined);
  const [navOpen, setNavOpen] = useState(false);
  useEffect(() => {
    Promise.all([muster.getDashboardPages(), muster.getDashboardPanels()]).then(
      ([listedPages, listedPanels]) => {
        setPages(listedPages.pages);
        setPanels(listedPanels.panels);
      },
      (caught: unknown) => {
        setError(caught);
        setPages([]);
      },
    );
  }, []);
  useEffect(() => setNavOpen(false), [route.href]);

  const page = pages?.find((listed) => listed.id === route.page);
  useEffect(() => {
    document.title = route.page === "" ? "Muster" : `${page?.title ?? "Not found"} · Muster`;
    if (pages) document.body.dataset.ready = "true";
  }, [route.page, page, pages]);

  let place;
  if (!pages) place = html`<p class="meta" aria-live="polite">Loading…</p>`;
  else if (route.page === "") place = html`<${Home} panels=${panels} />`;
  else if (page) place = html`<${PageHost} key=${page.id} page=${page} />`;
  else place = html`<div class="page"><${PageHeader} title="No such page" /><p>The console has no page named <code>${route.page}</code>. <a href="/">Go home</a>.</p></div>`;

  return html`<a class="skip" href="#main">Skip to the page</a>
    <header class="top">
      <a class="brand" href="/"><img src="/dashboard/icon.svg" alt="" width="24" height="24" /><span>Muster</span></a>
      <button type="button" class="nav-toggle" aria-controls="console-nav" aria-expanded=${navOpen ? "true" : "false"} onClick=${() => setNavOpen(!navOpen)}>${navOpen ? "Close the menu" : "Open the menu"}</button>
      <${Status} />
    </header>
    <div class="frame">
      <${Navigation} pages=${pages ?? []} current=${route.page} open=${navOpen} />
      <main id="main" tabindex="-1">
        <${SignInBanner} />
        <${ErrorNote} error=${error} prefix="Could not list the console's pages." />
        ${place}
      </main>
    </div>`;
}
