// Issue 22 finding 11: the 413 for an oversized body must always reach the client. The server
// used to answer while the client was still sending and then close the socket (a client that
// sent `Connection: close`, as Python's urllib does) or destroy it (a chunked body refused
// mid-way), so the client's next writes met a reset (EPIPE/ECONNRESET) and the 413 in flight
// was lost. A raw socket sends the body the way a blocking HTTP client does (headers, then the
// body in pieces, slow or fast, whatever the server does meanwhile) and must then read a 413
// with its code every time.
import { connect } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";

const t = suite<{ h: TestHost }>("oversized bodies");

t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const BODY_BYTES = 1024 * 1024 + 1024;
const ATTEMPTS = 6;

interface Sent {
  /** Everything the server sent back. */
  answer: string;
  /** The socket error the client met (EPIPE, ECONNRESET), if any. */
  error: string | null;
}

/**
 * Sends a POST /api/tasks with a JSON body of BODY_BYTES in `chunk`-byte pieces, pausing
 * `pauseMs` between pieces (0: as fast as the socket takes them), with a Content-Length or
 * chunked. Resolves once the server closed the connection or the client met an error.
 */
function sendOversized(url: string, options: { chunk: number; pauseMs: number; chunked: boolean; close: boolean; bytes?: number }): Promise<Sent> {
  const { port } = new URL(url);
  const body = Buffer.from(JSON.stringify({ title: "x", notes: "y".repeat((options.bytes ?? BODY_BYTES) - 26) }));
  return new Promise((resolve) => {
    // Half-open allowed: like a blocking client, it goes on sending after the server's FIN.
    const socket = connect({ host: "127.0.0.1", port: Number(port), allowHalfOpen: true });
    const received: Buffer[] = [];
    let error: string | null = null;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      resolve({ answer: Buffer.concat(received).toString("latin1"), error });
    };
    socket.on("data", (data) => received.push(data));
    socket.on("error", (caught: NodeJS.ErrnoException) => {
      error ??= caught.code ?? caught.message;
      finish();
    });
    socket.on("close", finish);
    const writeAll = async () => {
      const framing = options.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`;
      socket.write(`POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${framing}\r\nConnection: ${options.close ? "close" : "keep-alive"}\r\n\r\n`);
      for (let at = 0; at < body.length && !socket.destroyed && !error; at += options.chunk) {
        const piece = body.subarray(at, at + options.chunk);
        const framed = options.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
        // Waits for the kernel to take the piece (back-pressure), as an HTTP client does.
        await new Promise<void>((done) => (socket.write(framed) ? done() : socket.once("drain", done)));
        if (options.pauseMs > 0) await new Promise((done) => setTimeout(done, options.pauseMs));
      }
      if (options.chunked && !socket.destroyed) socket.write("0\r\n\r\n");
      // Done sending; a server that keeps the connection alive is told we are finished.
      if (!socket.destroyed) socket.end();
    };
    void writeAll().catch(() => finish());
  });
}

function assertRead413(sent: Sent, label: string): void {
  assert.is(sent.error, null, `${label}: the client met ${sent.error} (answer so far: ${JSON.stringify(sent.answer.slice(0, 80))})`);
  assert.match(sent.answer, /^HTTP\/1\.1 413 /, `${label}: answered ${JSON.stringify(sent.answer.slice(0, 80))}`);
  assert.match(sent.answer, /"code":"PAYLOAD_TOO_LARGE"/, label);
}

t("a slow sender of 1 MiB + 1 KiB always reads the 413 with its code, never a reset", async ({ h }) => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    assertRead413(await sendOversized(h.url, { chunk: 64 * 1024, pauseMs: 5, chunked: false, close: true }), `slow attempt ${attempt} (Connection: close)`);
    assertRead413(await sendOversized(h.url, { chunk: 64 * 1024, pauseMs: 5, chunked: false, close: false }), `slow attempt ${attempt} (keep-alive)`);
  }
});

t("a fast sender (Content-Length or chunked) always reads the 413 with its code, never a reset", async ({ h }) => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    assertRead413(await sendOversized(h.url, { chunk: 256 * 1024, pauseMs: 0, chunked: false, close: true }), `fast attempt ${attempt} (Connection: close)`);
    assertRead413(await sendOversized(h.url, { chunk: 256 * 1024, pauseMs: 0, chunked: false, close: false }), `fast attempt ${attempt} (keep-alive)`);
    assertRead413(await sendOversized(h.url, { chunk: 16 * 1024, pauseMs: 0, chunked: true, close: false }), `fast chunked attempt ${attempt}`);
    // Refused mid-way (the limit is passed long before the end), then the rest still arrives.
    assertRead413(await sendOversized(h.url, { chunk: 16 * 1024, pauseMs: 0, chunked: true, close: true, bytes: 2 * BODY_BYTES }), `fast chunked 2 MiB attempt ${attempt}`);
  }
});

t("the server stays healthy after the refusals and stored nothing", async ({ h }) => {
  const health = await h.json("/api/health");
  assert.is(health.status, 200);
  assert.is((await h.json("/api/tasks")).body.length, 0);
});

t.run();
