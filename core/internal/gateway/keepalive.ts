// Finds a dead connection that TCP has not noticed: no frame at all for two tick intervals
// (the gateway ticks every `policy.tickIntervalMs`), or a WebSocket ping without a pong in
// time (a half-open connection: the peer vanished without a FIN).
import WebSocket from "ws";

export interface KeepaliveOptions {
  tickIntervalMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  /** Called once when the connection is judged dead, with why and the close reason to send. */
  onDead(lastError: string, closeReason: "tick timeout" | "pong timeout"): void;
}

export class Keepalive {
  private readonly ws: WebSocket;
  private readonly options: KeepaliveOptions;
  private silence: NodeJS.Timeout | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private pongDue: NodeJS.Timeout | undefined;

  constructor(ws: WebSocket, options: KeepaliveOptions) {
    this.ws = ws;
    this.options = options;
  }

  start(): void {
    this.frame();
    this.pinger = setInterval(() => {
      if (this.pongDue || this.ws.readyState !== WebSocket.OPEN) return;
      const { pongTimeoutMs } = this.options;
      this.pongDue = setTimeout(() => this.dead(`no pong within ${pongTimeoutMs} ms (half-open connection)`, "pong timeout"), pongTimeoutMs);
      this.ws.ping();
    }, this.options.pingIntervalMs);
  }

  /** Any frame received proves the gateway is there. */
  frame(): void {
    clearTimeout(this.silence);
    const window = 2 * this.options.tickIntervalMs;
    this.silence = setTimeout(() => this.dead(`no frame from the gateway for ${window} ms (tick timeout)`, "tick timeout"), window);
  }

  pong(): void {
    clearTimeout(this.pongDue);
    this.pongDue = undefined;
  }

  stop(): void {
    clearTimeout(this.silence);
    clearInterval(this.pinger);
    clearTimeout(this.pongDue);
    this.silence = this.pinger = this.pongDue = undefined;
  }

  private dead(lastError: string, closeReason: "tick timeout" | "pong timeout"): void {
    this.stop();
    this.options.onDead(lastError, closeReason);
  }
}
