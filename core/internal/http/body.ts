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
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MusterError("INVALID_JSON", 400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
}
