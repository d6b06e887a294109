// The stream's wire bytes as a client receives them: a net socket (no HTTP library that would
// forgive a bad framing) and a strict decoder of HTTP/1.x responses: Content-Length bodies,
// chunked bodies (every size line, chunk and CRLF checked; each chunk kept apart) and bodies
// that end with the connection (HTTP/1.0).
import { connect, type Socket } from "node:net";
import { scaled } from "../../helpers/time-scale.ts";

export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its values comma-joined. */
  headers: Map<string, string>;
  framing: "length" | "chunked" | "close";
  /** Chunked: each chunk's data apart. Otherwise the body so far as one piece. */
  chunks: Buffer[];
  /** Chunked: the last chunk (`0\r\n\r\n`) has arrived; length: the whole body has. */
  complete: boolean;
}

/** Thrown for bytes that no HTTP/1.1 client could decode. */
export class FramingError extends Error {}

/**
 * Decodes the responses in `bytes`, in order (pipelined responses follow each other). An
 * incomplete tail is left for later bytes; a close-delimited body is everything after its
 * headers (it ends with the connection).
 */
export function decodeResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf("\r\n\r\n", at);
    if (headEnd < 0) break;
    const [statusLine, ...lines] = bytes.subarray(at, headEnd).toString("latin1").split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine!);
    if (!status) throw new FramingError(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new FramingError(`not a header line: ${JSON.stringify(line)}`);
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    at = headEnd + 4;
    const te = headers.get("transfer-encoding");
    const length = headers.get("content-length");
    if (te !== undefined && length !== undefined) throw new FramingError("both Transfer-Encoding and Content-Length");
    if (te !== undefined) {
      if (te.toLowerCase() !== "chunked") throw new FramingError(`Transfer-Encoding ${te}`);
      const response: RawResponse = { status: Number(status[1]), headers, framing: "chunked", chunks: [], complete: false };
      responses.push(response);
      for (;;) {
        const lineEnd = bytes.indexOf("\r\n", at);
        if (lineEnd < 0) return responses;
        const sizeLine = bytes.subarray(at, lineEnd).toString("latin1");
        if (!/^[0-9a-fA-F]{1,8}$/.test(sizeLine)) throw new FramingError(`bad chunk size line ${JSON.stringify(sizeLine.slice(0, 40))}`);
        const size = parseInt(sizeLine, 16);
        const dataEnd = lineEnd + 2 + size;
        if (bytes.length < dataEnd + 2) return responses;
        if (bytes[dataEnd] !== 0x0d || bytes[dataEnd + 1] !== 0x0a) throw new FramingError(`chunk of ${size} bytes not followed by CRLF`);
        at = dataEnd + 2;
        if (size === 0) {
          response.complete = true;
          break;
        }
        response.chunks.push(bytes.subarray(lineEnd + 2, dataEnd));
      }
    } else if (length !== undefined) {
      const end = at + Number(length);
      const complete = bytes.length >= end;
      responses.push({ status: Number(status[1]), headers, framing: "length", chunks: [bytes.subarray(at, Math.min(end, bytes.length))], complete });
      if (!complete) return responses;
      at = end;
    } else {
      responses.push({ status: Number(status[1]), headers, framing: "close", chunks: [bytes.subarray(at)], complete: false });
      return responses;
    }
  }
  return responses;
}

/** A raw HTTP connection: sends what it is given, keeps every byte received. */
export interface RawConnection {
  socket: Socket;
  received(): Buffer;
  closed(): boolean;
  /** Resolves with the decoded responses once `done(responses)` holds (checked at every read and at close). */
  until(done: (responses: RawResponse[], closed: boolean) => boolean, label: string, boundMs?: number): Promise<RawResponse[]>;
}

export function rawConnect(url: string, request: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const pieces: Buffer[] = [];
    let isClosed = false;
    const checks = new Set<() => void>();
    socket.on("data", (chunk: Buffer) => {
      pieces.push(chunk);
      for (const check of [...checks]) check();
    });
    socket.on("close", () => {
      isClosed = true;
      for (const check of [...checks]) check();
    });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.write(request);
      resolve(connection);
    });
    const received = () => Buffer.concat(pieces);
    const connection: RawConnection = {
      socket,
      received,
      closed: () => isClosed,
      until(done, label, boundMs = 3_000) {
        return new Promise((resolveUntil, rejectUntil) => {
          const timeoutMs = scaled(boundMs);
          const check = () => {
            try {
              const responses = decodeResponses(received());
              if (!done(responses, isClosed)) return;
              checks.delete(check);
              clearTimeout(timer);
              resolveUntil(responses);
            } catch (error) {
              checks.delete(check);
              clearTimeout(timer);
              rejectUntil(error);
            }
          };
          const timer = setTimeout(() => {
            checks.delete(check);
            rejectUntil(new Error(`timed out after ${timeoutMs} ms waiting for ${label}; received ${JSON.stringify(received().toString("latin1").slice(0, 600))}`));
          }, timeoutMs);
          checks.add(check);
          check();
        });
      },
    };
  });
}
