// A route table served by the host's real request listener (createApp, its lean lane and Koa
// chain) on a node:http server of 127.0.0.1, for the suites that test how a route's answer is
// written without starting a whole host: the start gate open, no token, the metrics kept.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../../core/internal/http/app.ts";
import { RouteTable } from "../../core/internal/http/plugin-router.ts";
import { createRequestMetrics, type RequestMetrics } from "../../core/internal/http/request-metrics.ts";
import { startGate } from "../../core/internal/http/start-gate.ts";
import { createLogger } from "../../core/internal/logger.ts";

/** A route table without a session to check and whose handlers run once (no storage guard). */
export function testRouteTable(): RouteTable {
  return new RouteTable({ bodyLimitBytes: 1_000, requireSession: () => {}, runHandler: (handler) => Promise.resolve(handler()) });
}

export interface ServedRoutes {
  server: Server;
  port: number;
  base: string;
  metrics: RequestMetrics;
  close(): Promise<void>;
}

export async function serveRouteTable(routes: RouteTable): Promise<ServedRoutes> {
  const gate = startGate();
  const metrics = createRequestMetrics();
  let port = 0;
  const listener = createApp({
    logger: createLogger("silent"),
    routes,
    metrics,
    startGate: gate,
    security: { development: false, bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [], apiToken: null, port: () => port },
  });
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  gate.open();
  return { server, port, base: `http://127.0.0.1:${port}`, metrics, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
