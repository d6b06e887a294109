import { token } from "@muster/plugin";
import type { GatewayCronJob, GatewaySessionSummary } from "./services/normalise.ts";

export type { GatewayCronJob, GatewaySessionSummary };

/** Reads the gateway's own lists, every page of them up to the configured cap. */
export interface GatewayProxy {
  /** `sessions.list`, mapped to the spec's Gateway session record. */
  sessions(): Promise<{ sessions: GatewaySessionSummary[]; truncated: boolean }>;
  /** `cron.list` (disabled jobs included), each job with the normalised fields added. */
  crons(): Promise<{ jobs: GatewayCronJob[]; truncated: boolean }>;
}

/** The gateway proxy service. Depend on the `gateway` plugin to use it. */
export const GATEWAY_PROXY = token<GatewayProxy>("gateway.proxy");
