// Answers for requests that never reach Koa: Node's http parser refuses a malformed request
// line (400), headers over the size limit (431), or a client too slow to send them (408).
// Node's own answers carry no headers at all; these carry the same security headers as
// every other response, a JSON error envelope, and `Connection: close`.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { hostErrors, type MusterError } from "../../plugin-api/errors.ts";
import { securityHeaderValues } from "./security.ts";

function errorFor(code: string | undefined): MusterError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return hostErrors.HEADERS_TOO_LARGE();
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return hostErrors.PAYLOAD_TOO_LARGE({ limit: "the accepted size" });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return hostErrors.REQUEST_TIMEOUT();
    default:
      return hostErrors.MALFORMED_REQUEST();
  }
}

/** A `clientError` listener for the http server. */
export function clientErrorHandler(development: boolean) {
  const headers = Object.entries(securityHeaderValues(development));
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // The condition Node itself uses: answer only if nothing of a response went out yet,
    // so a half-sent response is never followed by a second one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code !== "ECONNRESET" && socket.writable && !inFlight?.headersSent) {
      const failure = errorFor(error.code);
      const body = JSON.stringify({ ok: false, error: { code: failure.code, message: failure.message } });
      const head = [
        `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? "Bad Request"}`,
        ...headers.map(([name, value]) => `${name}: ${value}`),
        "Content-Type: application/json; charset=utf-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
      ].join("\r\n");
      // The server keeps half-open sockets: after the answer is flushed the socket is
      // destroyed, and a peer that never reads it loses the socket soon anyway.
      socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
      setTimeout(() => socket.destroy(), 2_000).unref();
      return;
    }
    socket.destroy();
  };
}
