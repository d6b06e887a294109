// Reads JSON request bodies with a size limit, refusing anything that is not JSON.
import type { Context } from "koa";
import { MusterError, hostErrors } from "../../plugin-api/errors.ts";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Whether the request announces a body (a length above 0 or chunked transfer). */
export function hasBody(ctx: Context): boolean {
  const length = ctx.get("content-length");
  if (length) return Number(length) > 0;
  return Boolean(ctx.get("transfer-encoding"));
}

function isJsonType(ctx: Context): boolean {
  const type = (ctx.get("content-type") || "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Returns the parsed body, or `undefined` when there is none. 415 for a non-JSON content
 * type, 413 past the limit (the rest of the body is drained so the connection stays
 * usable), 400 `INVALID_JSON` for malformed JSON, a BOM or invalid UTF-8.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!isJsonType(ctx)) throw hostErrors.UNSUPPORTED_MEDIA_TYPE();
  const declared = Number(ctx.get("content-length") || 0);
  if (declared > limit) {
    ctx.req.resume();
    throw hostErrors.PAYLOAD_TOO_LARGE({ limit });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.resume();
      throw hostErrors.PAYLOAD_TOO_LARGE({ limit });
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new MusterError("INVALID_JSON", 400, "The request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Only the position: V8's message quotes the body, which may hold a secret value.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new MusterError("INVALID_JSON", 400, `The request body is not valid JSON${position ? ` (at position ${position})` : ""}`);
  }
  if (depthExceeds(value, MAX_DEPTH)) {
    throw new MusterError("INVALID_JSON", 400, `The request body is nested more than ${MAX_DEPTH} levels deep`);
  }
  return value;
}

/** Deepest nesting a body may have; validators that recurse (z.json()) would overflow the stack on more. */
export const MAX_DEPTH = 64;

/** Iterative, so a body nested 500,000 levels deep cannot overflow the stack here either. */
function depthExceeds(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}
