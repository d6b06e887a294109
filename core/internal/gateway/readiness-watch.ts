// While the gateway cannot be reached, a cheap look each second tells when it is back, so
// Muster connects within a second of the gateway's readiness instead of waiting out a
// backoff delay of up to 30 s. It looks at OpenClaw's `GET /readyz` on the gateway's own
// port (reference: 200 once ready; the port listens ~5 s before that). One request a
// second to a port that refuses connections costs nothing; a gateway that answers but
// refuses Muster (token, protocol) is never watched, so it is never hammered.
import { request as httpRequest } from "node:http";
import { connect as tcpConnect } from "node:net";

export interface ReadinessWatch {
  stop(): void;
}

/** `ready` when /readyz says 200 (or, for a server without it, when the port answers HTTP). */
type Look = "ready" | "not-ready" | "unreachable";

function lookHttp(url: URL, timeoutMs: number): Promise<Look> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port || 80, path: "/readyz", method: "GET", timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      // 503 while the gateway is starting; any other answer comes from a server that has no
      // readiness route (an older gateway, a proxy): the handshake will tell.
      resolve(res.statusCode === 503 ? "not-ready" : "ready");
    });
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve("unreachable"));
    req.end();
  });
}

/** Over TLS (`wss:`) only the port is looked at: a TCP accept means it is worth a handshake. */
function lookTcp(url: URL, timeoutMs: number): Promise<Look> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: url.hostname, port: Number(url.port || 443), timeout: timeoutMs });
    const done = (look: Look) => {
      socket.destroy();
      resolve(look);
    };
    socket.once("connect", () => done("ready"));
    socket.once("timeout", () => done("unreachable"));
    socket.once("error", () => done("unreachable"));
  });
}

/**
 * Looks every `intervalMs` until the gateway is ready, then calls `onReady` once.
 * `afterOutage`: a connection that was open just dropped; it counts as back only once it was
 * seen away. A first look that finds it ready means the drop was the gateway's own doing
 * (it dropped Muster while up), which the backoff handles: the watch ends without calling.
 */
export function watchReadiness(gatewayUrl: string, intervalMs: number, onReady: () => void, afterOutage = false): ReadinessWatch {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let target: URL;
  try {
    target = new URL(gatewayUrl);
  } catch {
    return { stop: () => undefined };
  }
  const look = target.protocol === "wss:" ? lookTcp : lookHttp;
  let seenAway = !afterOutage;
  const next = () => {
    timer = setTimeout(async () => {
      const seen = await look(target, Math.max(200, intervalMs));
      if (stopped) return;
      if (seen !== "ready") {
        seenAway = true;
        return next();
      }
      stopped = true;
      if (seenAway) onReady();
    }, intervalMs);
    timer.unref();
  };
  next();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
