// What a home-page panel module receives as `kit` (the ConsolePanel contract, plugin-point-shapes.ts):
// plain-DOM helpers, so a panel needs no framework. Pages and panels may import
// `@muster/console` instead; these stay for panels written against the first contract.
import { MusterApiError } from "@muster/sdk/client";
import { errorText } from "./client.ts";
import { csrfSecret } from "./session.ts";
import { ago } from "./ui/basics.ts";

/** `h("p", { class: "meta" }, "text", child)`; every string child is a text node, `on<event>` props add listeners. */
export function h(tag: string, props: Record<string, unknown> = {}, ...children: unknown[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = String(value);
    else if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value as EventListener);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of (children as unknown[]).flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A relative `<time>` element. */
export function time(when: string | number): HTMLElement {
  const ms = typeof when === "number" ? when : Date.parse(when);
  if (!Number.isFinite(ms)) return h("time", {}, "");
  return h("time", { datetime: new Date(ms).toISOString(), title: new Date(ms).toLocaleString() }, ago(ms));
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const secret = csrfSecret();
  if (method !== "GET" && secret) headers["x-muster-csrf"] = secret;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  const text = await response.text();
  const data = text ? (JSON.parse(text) as { error?: { code?: string; message?: string } }) : undefined;
  if (!response.ok) throw new MusterApiError<string>({ status: response.status, code: data?.error?.code ?? `HTTP_${response.status}`, message: data?.error?.message ?? `The server answered ${response.status}` });
  return data;
}

export const panelKit = Object.freeze({
  api: { get: (path: string) => call("GET", path), patch: (path: string, body: unknown) => call("PATCH", path, body), post: (path: string, body: unknown) => call("POST", path, body) },
  ApiError: MusterApiError,
  h,
  time,
  errorText,
});
