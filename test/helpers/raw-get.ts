// One HTTP/1.1 GET written to a socket as is (the target unmodified: `fetch` would drop a
// `#` and normalise the path), and its answer parsed. The lean lane's suites send a request
// both ways with it: as given, and with a `#` that sends it down the Koa chain.
import { connect } from "node:net";
import * as assert from "uvu/assert";

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header's values joined with ", ", as HTTP combines them. */
  headers: Map<string, string>;
  body: string;
}

export function rawGet(port: number, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
      const answer: RawAnswer = { status: Number(statusLine!.split(" ")[1]), headers: new Map(), body: text.slice(split + 4) };
      for (const line of lines) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).toLowerCase();
        const value = line.slice(colon + 1).trim();
        answer.headers.set(name, answer.headers.has(name) ? `${answer.headers.get(name)}, ${value}` : value);
      }
      resolve(answer);
    });
    const head = { Host: `127.0.0.1:${port}`, Connection: "close", ...headers };
    socket.write(`GET ${target} HTTP/1.1\r\n${Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`);
  });
}

/**
 * Headers that differ between any two answers (the clock, the request's own id, the
 * connection), and the length, which a health answer's clock fields change (checked against
 * each body instead).
 */
const PER_ANSWER = new Set(["date", "x-request-id", "connection", "keep-alive", "content-length"]);
/** Body fields that differ between any two health answers. */
const PER_MOMENT = /"(timestamp|uptimeMs|since)":("[^"]*"|\d+)/g;

/**
 * Sends `target` both ways, through the lean lane and (with a `#`) down the Koa chain, and
 * asserts the two answers alike: status, headers and body. Returns the lean lane's.
 */
export async function assertAlike(port: number, target: string, headers?: Record<string, string>): Promise<RawAnswer> {
  const lean = await rawGet(port, target, headers);
  const chain = await rawGet(port, `${target}#`, headers);
  assert.is(lean.status, chain.status, `${target}: status`);
  const kept = (answer: RawAnswer) => [...answer.headers].filter(([name]) => !PER_ANSWER.has(name)).sort(([a], [b]) => a.localeCompare(b));
  assert.equal(kept(lean), kept(chain), `${target}: headers`);
  assert.is(lean.body.replace(PER_MOMENT, ""), chain.body.replace(PER_MOMENT, ""), `${target}: body`);
  for (const answer of [lean, chain]) assert.is(answer.headers.get("content-length"), String(Buffer.byteLength(answer.body)), `${target}: length`);
  // A request id the client sent is kept by both (when valid); otherwise each answer has a new one.
  const sent = headers?.["X-Request-Id"];
  if (sent && /^[A-Za-z0-9_-]{8,64}$/.test(sent)) assert.is(chain.headers.get("x-request-id"), sent);
  else assert.match(lean.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  return lean;
}
