import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { WORKSPACE_FILE_CHANGED, type EventBus, type Logger, type WorkspaceFileChange } from "@muster/plugin";
import type { StreamConfig } from "../config.ts";
import { streamErrors } from "../errors.ts";
import { encodeFrame, encodeJsonFrame, formatId, parseLastEventId, type StreamMessage } from "./frames.ts";
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

/** Per-client state: the timer that drops the client unless it catches up within `maxLagMs`. */
interface ClientState {
  lagTimer: NodeJS.Timeout | null;
}

/**
 * Fans frames out to every SSE client. Each frame is encoded once and the same buffer is
 * written to every socket without waiting for any of them. A client whose unsent bytes stay
 * above `maxBufferedBytes` for `maxLagMs` (or exceed `maxBufferedBytesHard` at once) is
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
    if (this.closed || this.clients.size >= this.deps.config.maxClients) {
      throw streamErrors.STREAM_TOO_MANY_CLIENTS({ limit: this.deps.config.maxClients }, { headers: { "Retry-After": "5" } });
    }
    const socket = res.socket;
    // The client may have gone while the request went through the middleware: its close
    // event has fired already, so registering it now would hold a slot forever.
    if (!socket || socket.destroyed || res.destroyed) return;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    res.writeHead(200, HEADERS);
    const state: ClientState = { lagTimer: null };
    this.clients.set(res, state);
    res.once("close", () => this.release(res));
    res.on("error", () => this.release(res));
    res.on("drain", () => this.caughtUp(state));

    res.write(encodeFrame(formatId(this.bootId, this.seq), { type: "connected", timestamp: Date.now() }));
    for (const frame of this.missed(lastEventId)) res.write(frame.bytes);
    this.watchLag(res, state);
    this.ping ??= setInterval(() => this.sendPing(), this.deps.config.pingIntervalMs).unref();
  }

  /** Encodes a message once, keeps it for replay and writes it to every client. */
  broadcast(message: StreamMessage): void {
    if (this.closed) return;
    let bytes: Buffer;
    try {
      bytes = encodeFrame(formatId(this.bootId, this.seq + 1), message);
    } catch (error) {
      this.deps.logger.warn({ err: error, type: message.type, name: message.type === "event" ? message.name : undefined }, "stream message not serialisable; skipped");
      return;
    }
    this.seq++;
    this.ring.push({ seq: this.seq, bytes });
    for (const [res, state] of this.clients) this.send(res, state, bytes);
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
    const bytes = encodeJsonFrame(formatId(this.bootId, seq), json);
    this.seq = seq;
    this.ring.push({ seq, bytes });
    for (const [res, state] of this.clients) this.send(res, state, bytes);
  }

  stats(): StreamStats {
    return { clients: this.clients.size, lastSeq: this.seq, replayFrames: this.ring.size, droppedSlowClients: this.dropped };
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
    const bytes = encodeFrame(formatId(this.bootId, this.seq), { type: "ping", timestamp: Date.now() });
    for (const [res, state] of this.clients) this.send(res, state, bytes);
  }

  private send(res: ServerResponse, state: ClientState, bytes: Buffer): void {
    if (res.writableLength > this.deps.config.maxBufferedBytesHard) {
      this.drop(res);
      return;
    }
    res.write(bytes);
    this.watchLag(res, state);
  }

  /** After a write: behind → the lag timer runs (once); caught up → it stops. */
  private watchLag(res: ServerResponse, state: ClientState): void {
    const { maxBufferedBytes, maxLagMs } = this.deps.config;
    if (res.writableLength <= maxBufferedBytes) {
      this.caughtUp(state);
      return;
    }
    state.lagTimer ??= setTimeout(() => {
      state.lagTimer = null;
      // Still behind after maxLagMs; a client that caught up in between is kept ('drain'
      // or a later write stopped the timer, or it is under the allowance now).
      if (this.clients.has(res) && res.writableLength > maxBufferedBytes) this.drop(res);
    }, maxLagMs).unref();
  }

  private caughtUp(state: ClientState): void {
    if (state.lagTimer) clearTimeout(state.lagTimer);
    state.lagTimer = null;
  }

  private drop(res: ServerResponse): void {
    this.dropped++;
    this.release(res);
    this.deps.logger.info({ buffered: res.writableLength }, "slow stream client disconnected");
    // A reset frees the kernel buffers at once; a graceful close would wait for the reader.
    const socket = res.socket;
    if (socket && typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
    else res.destroy();
  }

  private release(res: ServerResponse): void {
    const state = this.clients.get(res);
    if (!state) return;
    this.caughtUp(state);
    this.clients.delete(res);
    if (this.clients.size === 0 && this.ping) {
      clearInterval(this.ping);
      this.ping = undefined;
    }
  }
}
