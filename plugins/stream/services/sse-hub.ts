import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { WORKSPACE_FILE_CHANGED, type EventBus, type Logger, type WorkspaceFileChange } from "@muster/plugin";
import type { StreamConfig } from "../config.ts";
import { streamErrors } from "../errors.ts";
import { encodeFrame, encodeJsonFrame, formatId, parseLastEventId, type StreamMessage } from "./frames.ts";
import { toWire, type WireFrame } from "./http-chunk.ts";
import { ReplayRing } from "./replay-ring.ts";
import type { EventStream } from "../tokens.ts";

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-store: frames carry workspace data; nothing between here and the reader keeps them.
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
};

/** At shutdown, how long a client may take to receive the end of its stream. */
const CLOSE_GRACE_MS = 250;

/** What the hub reports about itself. */
export interface StreamStats {
  clients: number;
  /** Sequence number of the newest frame. */
  lastSeq: number;
  replayFrames: number;
  /** Clients disconnected because they fell too far behind. */
  droppedSlowClients: number;
}

/**
 * Per-client state. Frames go straight to the socket (see `open`); `chunked` says whether the
 * response uses chunked encoding (HTTP/1.1) or not (HTTP/1.0: the body ends with the
 * connection). `lagTimer` drops the client unless it catches up within `maxLagMs`.
 */
interface ClientState {
  socket: Socket;
  chunked: boolean;
  lagTimer: NodeJS.Timeout | null;
  onDrain: () => void;
}

/**
 * Fans frames out to every SSE client. Each frame is encoded once, framed once as an HTTP
 * chunk, and the same buffer is written to every socket without waiting for any of them.
 * A client whose unsent bytes stay above `maxBufferedBytes` for `maxLagMs` (or exceed `maxBufferedBytesHard` at once) is
 * disconnected, so a slow reader never delays the others nor holds memory; a fast reader
 * that merely received a large burst in one tick drains and is kept. The lag is timed per
 * client from the write that put it behind, so a reader that stops is dropped after
 * `maxLagMs` even when nothing else is sent (not at the next frame or ping).
 */
export class SseHub implements EventStream {
  /**
   * Distinguishes this process's frame ids from a previous one's; in team mode the
   * deployment's origin, shared by every instance ({@link adopt}).
   */
  bootId = randomBytes(4).toString("hex");
  private readonly clients = new Map<ServerResponse, ClientState>();
  /** Streams requested behind another response on their connection (HTTP/1.1 pipelining): they hold a slot until their turn. */
  private readonly waiting = new Set<ServerResponse>();
  private readonly ring: ReplayRing;
  private seq = 0;
  private dropped = 0;
  private ping: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly deps: { config: StreamConfig; logger: Logger };
  constructor(deps: { config: StreamConfig; logger: Logger }) {
    this.deps = deps;
    this.ring = new ReplayRing(deps.config.replaySize, deps.config.replayMaxBytes);
  }

  /**
   * Subscribes to the bus: public events and workspace file changes. Returns the unsubscribe
   * function. Each message goes to `send`: this hub's clients, or in team mode the relay,
   * which brings it back through the database with every instance's (team-relay.ts).
   */
  attach(events: EventBus, send: (message: StreamMessage) => void = (message) => this.broadcast(message)): () => void {
    const offAll = events.subscribe("*", (event) => {
      if (event.public) send({ type: "event", name: event.name, payload: event.payload, timestamp: event.timestamp });
    });
    const offFiles = events.subscribe(WORKSPACE_FILE_CHANGED, (event) => {
      const change = event.payload as WorkspaceFileChange;
      send({ type: "file_change", event: { type: change.type, path: change.path, timestamp: change.timestamp } });
    });
    return () => {
      offAll();
      offFiles();
    };
  }

  /**
   * Takes over a response as an SSE stream: headers, the `connected` frame, then the frames
   * missed since `lastEventId`. Throws 503 `STREAM_TOO_MANY_CLIENTS` at the cap (nothing
   * written yet, so the error envelope can still be sent).
   */
  open(res: ServerResponse, lastEventId: string | undefined): void {
    if (this.closed || this.clients.size + this.waiting.size >= this.deps.config.maxClients) {
      throw streamErrors.STREAM_TOO_MANY_CLIENTS({ limit: this.deps.config.maxClients }, { headers: { "Retry-After": "5" } });
    }
    const connection = res.req.socket;
    // The client may have gone while the request went through the middleware: its close
    // event has fired already, so registering it now would hold a slot forever.
    if (connection.destroyed || res.destroyed) return;
    if (res.socket) this.start(res, res.socket, lastEventId);
    else this.startInTurn(res, connection, lastEventId);
  }

  /**
   * A request pipelined behind another on its connection: Node gives its response the socket
   * once the earlier response has ended (until then writing would put the stream's bytes
   * inside that response). The stream starts then, replaying what was broadcast meanwhile.
   */
  private startInTurn(res: ServerResponse, connection: Socket, lastEventId: string | undefined): void {
    const since = parseLastEventId(lastEventId) ? lastEventId : formatId(this.bootId, this.seq);
    this.waiting.add(res);
    const gone = () => this.waiting.delete(res);
    connection.once("close", gone);
    res.once("socket", (socket: Socket) => {
      connection.off("close", gone);
      if (this.waiting.delete(res) && !socket.destroyed) this.start(res, socket, since);
    });
  }

  private start(res: ServerResponse, socket: Socket, lastEventId: string | undefined): void {
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    // The headers go out now, through the response, which decides the body's framing
    // (chunked for HTTP/1.1). From here on the hub writes every frame to the socket itself,
    // already framed (`toWire`), and the response writes nothing more until `end()` at
    // shutdown appends the last chunk. A response has a socket only while it is the
    // connection's current one (a pipelined response waits without), so nothing of an
    // earlier response can come after these bytes.
    // Corked: the headers, `connected` and the replay leave in one write.
    socket.cork();
    res.writeHead(200, HEADERS);
    res.flushHeaders();
    const state: ClientState = { socket, chunked: res.chunkedEncoding, lagTimer: null, onDrain: () => this.caughtUp(state) };
    this.clients.set(res, state);
    res.once("close", () => this.release(res));
    res.on("error", () => this.release(res));
    socket.on("drain", state.onDrain);
    this.write(state, toWire(encodeFrame(formatId(this.bootId, this.seq), { type: "connected", timestamp: Date.now() })));
    for (const frame of this.missed(lastEventId)) this.write(state, toWire(frame.bytes));
    socket.uncork();
    this.watchLag(res, state);
    this.ping ??= setInterval(() => this.sendPing(), this.deps.config.pingIntervalMs).unref();
  }

  /** Encodes a message once, keeps it for replay and writes it to every client. */
  broadcast(message: StreamMessage): void {
    if (this.closed) return;
    let wire: WireFrame;
    try {
      wire = toWire(encodeFrame(formatId(this.bootId, this.seq + 1), message));
    } catch (error) {
      this.deps.logger.warn({ err: error, type: message.type, name: message.type === "event" ? message.name : undefined }, "stream message not serialisable; skipped");
      return;
    }
    this.seq++;
    // The ring keeps the frame alone (a view of the same memory); a replay frames it again.
    this.ring.push({ seq: this.seq, bytes: wire.frame });
    for (const [res, state] of this.clients) this.send(res, state, wire);
  }

  /**
   * Team mode, before the first client: frame ids from here on are `<origin>-<database id>`,
   * the same on every instance, continuing after `seq`.
   */
  adopt(origin: string, seq: number): void {
    this.bootId = origin;
    this.seq = seq;
  }

  /**
   * Team mode: a frame the database numbered `seq`, already serialised (`json`). Sent and kept
   * for replay like {@link broadcast}; a number not above the last one is a frame already sent.
   */
  relay(seq: number, json: string): void {
    if (this.closed || seq <= this.seq) return;
    const wire = toWire(encodeJsonFrame(formatId(this.bootId, seq), json));
    this.seq = seq;
    this.ring.push({ seq, bytes: wire.frame });
    for (const [res, state] of this.clients) this.send(res, state, wire);
  }

  stats(): StreamStats {
    return { clients: this.clients.size + this.waiting.size, lastSeq: this.seq, replayFrames: this.ring.size, droppedSlowClients: this.dropped };
  }

  /** Ends every stream (host shutdown) and refuses new ones. */
  close(): void {
    this.closed = true;
    if (this.ping) clearInterval(this.ping);
    this.ping = undefined;
    for (const [res, state] of [...this.clients]) {
      this.caughtUp(state);
      this.clients.delete(res);
      // Ending the response leaves a keep-alive socket behind; ending the socket lets the
      // server's close() finish at once instead of waiting for its idle timeout. A client
      // that does not read what is still buffered is cut off after a short grace.
      const socket = res.socket;
      res.end(() => socket?.end());
      setTimeout(() => socket?.destroy(), CLOSE_GRACE_MS).unref();
    }
    // Still behind another response: the connection ends after it.
    for (const res of this.waiting) {
      const connection = res.req.socket;
      connection.end();
      setTimeout(() => connection.destroy(), CLOSE_GRACE_MS).unref();
    }
    this.waiting.clear();
  }

  private missed(lastEventId: string | undefined) {
    const last = parseLastEventId(lastEventId);
    if (!last) return [];
    // An id from another process (a restart): everything this process has kept was missed.
    if (last.bootId !== this.bootId) return this.ring.after(0);
    return last.seq >= this.seq ? [] : this.ring.after(last.seq);
  }

  private sendPing(): void {
    if (this.clients.size === 0) return;
    const wire = toWire(encodeFrame(formatId(this.bootId, this.seq), { type: "ping", timestamp: Date.now() }));
    for (const [res, state] of this.clients) this.send(res, state, wire);
  }

  private send(res: ServerResponse, state: ClientState, wire: WireFrame): void {
    if (state.socket.writableLength > this.deps.config.maxBufferedBytesHard) {
      this.drop(res);
      return;
    }
    this.write(state, wire);
    this.watchLag(res, state);
  }

  /** The frame as this client's response frames its body; nothing once the socket is closing. */
  private write(state: ClientState, wire: WireFrame): void {
    if (state.socket.writable) state.socket.write(state.chunked ? wire.chunk : wire.frame);
  }

  /**
   * After a write: behind → the lag timer runs (once); caught up → it stops. "Behind" is the
   * socket's unsent bytes: the frames are written there, not through the response.
   */
  private watchLag(res: ServerResponse, state: ClientState): void {
    const { maxBufferedBytes, maxLagMs } = this.deps.config;
    if (state.socket.writableLength <= maxBufferedBytes) {
      this.caughtUp(state);
      return;
    }
    state.lagTimer ??= setTimeout(() => {
      state.lagTimer = null;
      // Still behind after maxLagMs; a client that caught up in between is kept ('drain'
      // or a later write stopped the timer, or it is under the allowance now).
      if (this.clients.has(res) && state.socket.writableLength > maxBufferedBytes) this.drop(res);
    }, maxLagMs).unref();
  }

  private caughtUp(state: ClientState): void {
    if (state.lagTimer) clearTimeout(state.lagTimer);
    state.lagTimer = null;
  }

  private drop(res: ServerResponse): void {
    this.dropped++;
    this.release(res);
    this.deps.logger.info({ buffered: res.socket?.writableLength }, "slow stream client disconnected");
    // A reset frees the kernel buffers at once; a graceful close would wait for the reader.
    const socket = res.socket;
    if (socket && typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
    else res.destroy();
  }

  private release(res: ServerResponse): void {
    const state = this.clients.get(res);
    if (!state) return;
    this.caughtUp(state);
    state.socket.off("drain", state.onDrain);
    this.clients.delete(res);
    if (this.clients.size === 0 && this.ping) {
      clearInterval(this.ping);
      this.ping = undefined;
    }
  }
}
