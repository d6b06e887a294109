// A tiny element builder. Every string child becomes a text node: agent-written text
// (titles, payloads, file names) is never parsed as HTML.

/** `h("p", { class: "meta" }, "text", child)`; `on<event>` props add listeners. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Shows `text` in an error element, or hides it for null. */
export function showError(element, text) {
  element.textContent = text ?? "";
  element.hidden = !text;
}

export function errorText(error) {
  return error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? error);
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "3 minutes ago" for an ISO timestamp or epoch milliseconds. */
export function ago(when) {
  const ms = typeof when === "number" ? when : Date.parse(when);
  if (!Number.isFinite(ms)) return "";
  const seconds = Math.round((ms - Date.now()) / 1000);
  const steps = [[60, "second"], [60, "minute"], [24, "hour"], [7, "day"], [Infinity, "week"]];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return RELATIVE.format(value, unit);
    value = Math.round(value / size);
  }
  return "";
}

/** A `<time>` element with the exact instant as its tooltip. */
export function time(when) {
  const ms = typeof when === "number" ? when : Date.parse(when);
  if (!Number.isFinite(ms)) return h("time", {}, "");
  const iso = new Date(ms).toISOString();
  return h("time", { datetime: iso, title: new Date(ms).toLocaleString() }, ago(ms));
}

/** Calls `fn` once after a burst of calls settles. */
export function debounce(fn, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
