import type { WorkKind } from "./services/kinds.ts";
import type { WorkRecord } from "./services/work-service.ts";

/** Events the work plugin publishes, for each kind (all public: forwarded to SSE clients). */
export type WorkEvents = { [K in WorkKind as `work.${K}.created` | `work.${K}.updated`]: WorkRecord } & {
  [K in WorkKind as `work.${K}.deleted`]: { id: string };
};

declare module "@muster/plugin" {
  interface MusterEvents extends WorkEvents {}
}
