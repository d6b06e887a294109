// How every JSON answer is put on the wire: routes' results and the error envelope.
import type { Context } from "koa";
import { keptAnswerText } from "../../plugin-api/kept-answer.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
const JSON_IN_TYPE = /\bjson\b/i;

/**
 * A route's answer as Koa would send it, serialised here instead of in Koa's respond(): for
 * an object body Koa's setter tests it against the web stream, Blob and Response classes
 * (the first test of `Response` loads all of undici, ~30 ms on the first answer of a start)
 * and looks the JSON type up again on every request. A JSON string with the type already set
 * takes the setter's first branch. A serialisation failure (a BigInt, a cycle) is now thrown
 * here, inside the error boundary, so it is answered with the 500 envelope. Anything that is
 * not a plain object or array (a route handing Koa a stream or a Buffer) goes to Koa as is.
 * An answer a route kept (`keptAnswer` of the plugin kit) is sent as the text made then.
 */
/** An answer serialised as JSON here: an object or array that is not a Buffer or a stream (those go to Koa as they are). */
export function isJsonAnswer(result: unknown): result is object {
  return typeof result === "object" && result !== null && !Buffer.isBuffer(result) && typeof (result as { pipe?: unknown }).pipe !== "function";
}

export function setJsonBody(ctx: Context, result: unknown): void {
  if (!isJsonAnswer(result)) {
    ctx.body = result;
    return;
  }
  // Straight on Node's response: Koa's `ctx.set` copies its arguments into arrays per call.
  const res = ctx.res;
  if (!ctx.headerSent && !JSON_IN_TYPE.test(String(res.getHeader("Content-Type") ?? ""))) res.setHeader("Content-Type", JSON_TYPE);
  ctx.body = keptAnswerText(result) ?? JSON.stringify(result);
}
