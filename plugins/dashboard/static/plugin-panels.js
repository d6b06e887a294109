// The panels other plugins contribute (GET /dashboard/panels): each gets its own region with
// its title as heading, its module is imported from /dashboard/plugins/<plugin>/<id>.js and
// mounted there, and it is refreshed on its events. A panel that fails to load or to draw
// shows the error in its own region; the rest of the page is not affected.
import { api, ApiError } from "./api.js";
import { debounce, errorText, h, time } from "./dom.js";
import { matchesAny } from "./event-families.js";

/** What a panel module receives besides its element (see ConsolePanel in plugins/dashboard/tokens.ts). */
const KIT = Object.freeze({ api, ApiError, h, time, errorText });

function failed(caught) {
  return h("p", { class: "error", role: "alert" }, errorText(caught));
}

/** Adds one region per contributed panel to `container`; `load()` mounts them and draws them once. */
export function createPluginPanels(container) {
  const mounted = []; // { panel, refresh }

  async function load() {
    let panels;
    try {
      ({ panels } = await api.get("/dashboard/panels"));
    } catch (caught) {
      container.append(h("p", { class: "error", role: "alert" }, `Could not list the plugins' panels. ${errorText(caught)}`));
      return;
    }
    await Promise.all(panels.map(mount));
  }

  async function mount(panel) {
    const name = `panel-${panel.plugin}-${panel.id}`;
    const body = h("div", { class: "panel-body" });
    container.append(
      h(
        "section",
        { id: name, class: "panel plugin-panel", "aria-labelledby": `${name}-title`, "data-plugin": panel.plugin, "data-panel": panel.id },
        h("div", { class: "panel-head" }, h("h2", { id: `${name}-title` }, panel.title)),
        body,
      ),
    );
    let draw;
    try {
      const module = await import(panel.module);
      const result = module.default(body, KIT);
      draw = typeof result === "function" ? result : typeof result?.refresh === "function" ? () => result.refresh() : () => {};
    } catch (caught) {
      body.replaceChildren(failed(caught));
      return;
    }
    const refresh = async () => {
      try {
        await draw();
      } catch (caught) {
        body.replaceChildren(failed(caught));
      }
    };
    mounted.push({ panel, refresh, soon: debounce(refresh, 250) });
    await refresh();
  }

  /** A live-stream event: the panels that follow it refresh (debounced, a burst draws once). */
  function onEvent(name) {
    for (const { panel, soon } of mounted) if (matchesAny(panel.events, name)) soon();
  }

  function refreshAll() {
    return Promise.all(mounted.map(({ refresh }) => refresh()));
  }

  return { load, onEvent, refreshAll };
}
