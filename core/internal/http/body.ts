// Reads JSON request bodies with a size limit, refusing anything that is not JSON.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Context } from "koa";
import { hostErrors, type MusterError } from "../../plugin-api/errors.ts";

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
 * usable), 400 `INVALID_JSON` for malformed JSON, a BOM, invalid UTF-8 or nesting past
 * {@link MAX_DEPTH}, 400 `INVALID_UNICODE` for a lone surrogate in any key or string, 400
 * `UNSAFE_JSON_KEY` for a `__proto__` key anywhere.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!isJsonType(ctx)) throw hostErrors.UNSUPPORTED_MEDIA_TYPE();
  const declared = Number(ctx.get("content-length") || 0);
  if (declared > limit) throw refuseOversized(ctx.req, limit);
  const bytes = await readBytes(ctx.req, limit);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw hostErrors.INVALID_JSON({ reason: "it is not valid UTF-8" });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Only the position: V8's message quotes the body, which may hold a secret value.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw hostErrors.INVALID_JSON({ reason: position ? `a syntax error at position ${position}` : "a syntax error" });
  }
  checkParsed(value, SURROGATE_ESCAPE.test(text));
  return value;
}

/**
 * The whole body, or the 413 once it passes `limit`. Listeners rather than the request's
 * async iterator: the iterator's promise per chunk and its end-of-stream bookkeeping were
 * about 3% of a create's CPU (issue 23's create round), and a JSON body is one chunk.
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(prematureClose());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      reject(refuseOversized(req, limit));
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // The client went before the body ended: nobody reads the answer, the route must not run.
    const onClose = () => {
      if (req.complete) return;
      stop();
      reject(prematureClose());
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

function prematureClose(): Error {
  return Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
}

/** How much of a refused body is still read and dropped after the 413 before the connection is cut. */
export const OVERSIZED_DRAIN_BYTES = 16 * 1024 * 1024;
/** How long a refused body may take to arrive after the 413 before the connection is cut. */
export const OVERSIZED_DRAIN_MS = 30_000;

/**
 * The 413 for a body past the limit, after arranging that the client can read it. A client
 * still sending when the answer goes out must not meet a reset: if the socket is closed
 * while its bytes keep arriving, the kernel answers them with RST, the client's writes fail
 * with EPIPE/ECONNRESET and the 413 waiting in its receive buffer is lost. So the rest of
 * the body is read and dropped (the connection stays usable for keep-alive clients); and
 * where Node would close after the answer (the client sent `Connection: close`), it only
 * half-closes (the client sees the whole answer and the end of it) and destroys the socket
 * once the body has arrived. Either way the drain is bounded: past
 * {@link OVERSIZED_DRAIN_BYTES} more or {@link OVERSIZED_DRAIN_MS} the connection is cut.
 */
function refuseOversized(req: IncomingMessage, limit: number): MusterError {
  const error = hostErrors.PAYLOAD_TOO_LARGE({ limit: `${limit} bytes` });
  const socket = req.socket as Socket & { destroySoon?: () => void };
  if (req.complete || socket.destroyed) return error;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, OVERSIZED_DRAIN_MS).unref();
  let drained = 0;
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > OVERSIZED_DRAIN_BYTES) cut();
  };
  const done = () => {
    clearTimeout(timer);
    req.off("data", count);
  };
  req.on("data", count);
  req.once("end", done);
  socket.once("close", done);
  req.resume();
  // Node calls destroySoon() after an answer that ends the connection; this socket's own
  // version waits for the refused body instead of dropping the bytes still on their way.
  socket.destroySoon = function holdUntilDrained(this: Socket) {
    if (this.writable) this.end();
    if (req.complete) this.destroy();
    else req.once("end", () => this.destroy());
  };
  return error;
}

/** Deepest nesting a body may have; validators that recurse (z.json()) would overflow the stack on more. */
export const MAX_DEPTH = 64;

/**
 * A `\uD800`-`\uDFFF` escape. Strict UTF-8 decoding cannot yield a lone surrogate, so only
 * such an escape can put one into a string; a body without any skips the string checks. The
 * test can match `\\ud800` (an escaped backslash), which only costs the full check.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * One iterative walk (a body nested 500,000 levels deep cannot overflow the stack) that
 * refuses what a route must never see: nesting past MAX_DEPTH; a `__proto__` key, which
 * JSON.parse keeps as an own property but any object copy drops or turns into a prototype
 * (a stored payload would then differ from the one asked for); and, when the raw text has
 * surrogate escapes, keys or strings with a lone surrogate, which cannot be stored or sent
 * back unchanged (UTF-8 has no encoding for them).
 */
function checkParsed(root: unknown, checkStrings: boolean): void {
  const stack: [unknown, number][] = [];
  visit(root, 1, stack, checkStrings);
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) {
      throw hostErrors.INVALID_JSON({ reason: `it is nested more than ${MAX_DEPTH} levels deep` });
    }
    if (Array.isArray(value)) {
      for (const child of value) visit(child, depth + 1, stack, checkStrings);
      continue;
    }
    for (const key of Object.keys(value as object)) {
      if (key === "__proto__") throw hostErrors.UNSAFE_JSON_KEY();
      if (checkStrings && !key.isWellFormed()) throw hostErrors.INVALID_UNICODE();
      visit((value as Record<string, unknown>)[key], depth + 1, stack, checkStrings);
    }
  }
}

/** Checks a string at once; queues an object or array for the walk. */
function visit(value: unknown, depth: number, stack: [unknown, number][], checkStrings: boolean): void {
  if (typeof value === "string") {
    if (checkStrings && !value.isWellFormed()) throw hostErrors.INVALID_UNICODE();
  } else if (value !== null && typeof value === "object") stack.push([value, depth]);
}
