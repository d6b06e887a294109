import { z } from "@muster/plugin";

/** `config.gateway` in muster.config.json: how far the proxies page through the gateway's lists. */
export const gatewayConfig = z.strictObject({
  /** Rows asked for per `sessions.list` / `cron.list` call (the gateway applies at most 100 / 200). */
  pageSize: z.number().int().min(1).max(200).default(100),
  /** Most rows one proxy answer holds; a longer list is cut there and reported `truncated: true`. */
  maxRows: z.number().int().min(1).max(100_000).default(5_000),
  /** Timeout of each gateway call. */
  callTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
});

export type GatewayConfig = z.output<typeof gatewayConfig>;
