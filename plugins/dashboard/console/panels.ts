// The panels plugins contribute to the home page (GET /dashboard/panels): each in its own
// region titled by the plugin, its module mounted there and drawn again on its events, every
// 30 s, and after a stream reconnect. A panel that fails shows the error in its own region.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.ts";
import { errorText } from "./client.ts";
import { subscribe } from "./live.ts";
import { panelKit } from "./panel-kit.ts";
import * as consoleKit from "./kit.ts";
import type { ListedPanel } from "./pages.ts";

const POLL_MS = 30_000;
type Draw = () => unknown;
type PanelMount = (element: HTMLElement, kit: typeof panelKit & typeof consoleKit) => Draw | { refresh?: Draw; unmount?: () => void } | void;

function Panel({ panel }: { panel: ListedPanel }) {
  const body = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let draw: Draw | undefined;
    let unmount: (() => void) | undefined;
    let gone = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      if (!draw || gone) return;
      try {
        await draw();
        setFailure(null);
      } catch (error) {
        setFailure(errorText(error));
      }
    };
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), 250);
    };
    import(panel.module)
      .then((module: { default: PanelMount }) => {
        if (gone || !body.current) return;
        const result = module.default(body.current, { ...consoleKit, ...panelKit });
        draw = typeof result === "function" ? result : typeof result?.refresh === "function" ? result.refresh : () => {};
        unmount = typeof result === "object" ? result?.unmount : undefined;
        return refresh();
      })
      .catch((error: unknown) => !gone && setFailure(errorText(error)));
    const stop = subscribe(panel.events.length ? panel.events : ["__none__"], soon);
    const poll = setInterval(() => void refresh(), POLL_MS);
    return () => {
      gone = true;
      stop();
      clearInterval(poll);
      clearTimeout(timer);
      unmount?.();
    };
  }, [panel.module]);
  const name = `panel-${panel.plugin}-${panel.id}`;
  return html`<section id=${name} class="panel plugin-panel" aria-labelledby=${`${name}-title`} data-plugin=${panel.plugin} data-panel=${panel.id}>
    <div class="panel-head"><h2 id=${`${name}-title`}>${panel.title}</h2></div>
    ${failure ? html`<p class="error" role="alert">${failure}</p>` : null}
    <div class="panel-body" ref=${body}></div>
  </section>`;
}

export function Panels({ panels }: { panels: readonly ListedPanel[] }) {
  return html`${panels.map((panel) => html`<${Panel} key=${`${panel.plugin}/${panel.id}`} panel=${panel} />`)}`;
}
