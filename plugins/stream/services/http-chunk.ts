// An SSE frame as it goes on the wire, built once per frame and written as is to every client.
// Streams to HTTP/1.1 clients are chunked (no Content-Length): each frame is one complete
// chunk, `<hex length>\r\n<frame>\r\n`, so the hub hands every socket the same Buffer instead
// of letting Node's response frame it again per client (a size line, a cork, a four-piece
// writev and a tick per client and frame). An HTTP/1.0 client gets no chunking (its body ends
// with the connection) and receives `frame`, a view of the same bytes without the framing.

/** One frame and its chunked-encoding framing; `frame` shares `chunk`'s memory. */
export interface WireFrame {
  /** `<hex length>\r\n<frame>\r\n`: one HTTP/1.1 chunk. */
  chunk: Buffer;
  /** The SSE frame alone. */
  frame: Buffer;
}

export function toWire(frame: Buffer): WireFrame {
  const sizeLine = `${frame.length.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafe(sizeLine.length + frame.length + 2);
  chunk.write(sizeLine, 0, "latin1");
  frame.copy(chunk, sizeLine.length);
  chunk.write("\r\n", sizeLine.length + frame.length, "latin1");
  return { chunk, frame: chunk.subarray(sizeLine.length, sizeLine.length + frame.length) };
}
