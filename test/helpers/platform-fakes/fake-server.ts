// A local HTTP peer on 127.0.0.1 (port 0) for the platform fakes: records every request and
// answers from per-route handlers, with scripted one-off answers (errors, rate limits, a
// request that never gets an answer) queued ahead of the normal one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: any; // `any` on purpose: the request body a platform fake received, whatever Muster sent
  /** Epoch ms when the request was received. */
  at: number;
}

/** A scripted answer: a status with an optional JSON body and headers, or `hang` (read the request, never answer). */
export type Scripted = { status: number; json?: unknown; headers?: Record<string, string> } | "hang";

export type Handler = (req: Recorded, res: ServerResponse) => void;

export interface FakeServer {
  url: string;
  requests: Recorded[];
  /** Requests to one route (`POST /rest/posts`), in order. */
  calls(route: string): Recorded[];
  /** Queues answers for a route; each is used once, before its normal handler. */
  script(route: string, ...answers: Scripted[]): void;
  close(): Promise<void>;
}

export async function startFakeServer(routes: (route: string, req: Recorded) => Handler | undefined): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const scripts = new Map<string, Scripted[]>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = body.length ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {
        json = undefined;
      }
      const url = new URL(req.url ?? "/", "http://fake");
      const recorded: Recorded = { method: req.method ?? "GET", path: url.pathname + url.search, headers: req.headers, body, json, at: Date.now() };
      requests.push(recorded);
      const route = `${recorded.method} ${url.pathname}`;
      const scripted = scripts.get(route)?.shift();
      if (scripted === "hang") return void hanging.add(res);
      if (scripted) return send(res, scripted.status, scripted.json ?? {}, scripted.headers);
      const handler = routes(route, recorded);
      if (!handler) return send(res, 404, { message: `no fake route ${route}` });
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (route) => requests.filter((r) => `${r.method} ${r.path.split("?")[0]}` === route),
    script(route, ...answers) {
      scripts.set(route, [...(scripts.get(route) ?? []), ...answers]);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(json));
}
