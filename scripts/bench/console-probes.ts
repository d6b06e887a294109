// What `npm run bench:console` runs inside the browser, as source text (this program is
// type-checked without the DOM library). Times are the page's own clock: performance.now()
// counts from the navigation's start.
//
// "Drawn" means the frame holding the element has been painted: a MutationObserver sees the
// element enter the DOM (or a card enter its new column), then two animation frames pass:
// the first runs just before the frame that paints it, the second at the start of the next,
// after that paint. The figure is therefore at most one frame (~17 ms) late, never early.

/** Installed before any of the page's scripts: records when `selector` first matches and when it is painted. */
export function firstRenderProbe(selector: string): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)};
    const seen = () => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      const inserted = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { window.__benchRender = { inserted, painted: performance.now() }; }));
    };
    const observer = new MutationObserver(seen);
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  })();`;
}

/**
 * Read once the render was recorded: the render, and when the steps before it ended (the
 * HTML, the last script or stylesheet, the last API answer before the content appeared).
 */
export const RENDER_REPORT = `(() => {
  const render = window.__benchRender;
  if (!render) return null;
  const navigation = performance.getEntriesByType("navigation")[0];
  const before = performance.getEntriesByType("resource").filter((entry) => entry.responseEnd <= render.inserted);
  const lastEnd = (test) => Math.max(0, ...before.filter((entry) => test(new URL(entry.name).pathname)).map((entry) => entry.responseEnd));
  return {
    inserted: render.inserted,
    painted: render.painted,
    html: navigation ? navigation.responseEnd : 0,
    code: lastEnd((path) => path.startsWith("/dashboard/") && /\\.(ts|js|css)$/.test(path)),
    data: lastEnd((path) => path.startsWith("/api/")),
    files: before.filter((entry) => new URL(entry.name).pathname.startsWith("/dashboard/")).length,
  };
})()`;

export const RENDER_RECORDED = "window.__benchRender !== undefined";

/**
 * Starts watching for card `id` to be drawn in column `to`; `window.__benchMove` becomes a
 * promise of the wall-clock time (Date.now(), the same clock as the bench's) it was painted there.
 */
export function moveProbe(id: string, to: string): string {
  return `(() => {
    const inColumn = () => document.querySelector('[data-card-id="${CSSescape(id)}"]')?.closest("[data-column]")?.getAttribute("data-column") === ${JSON.stringify(to)};
    window.__benchMove = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!inColumn()) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(Date.now())));
      });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-column", "data-card-id"] });
    });
    return inColumn();
  })()`;
}

/** Ids here are the server's (letters, digits, dashes); anything else would be a bench bug. */
function CSSescape(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`unexpected card id ${JSON.stringify(id)}`);
  return id;
}
