import type { CronRunRecord } from "./tokens.ts";

/** Events the crons plugin publishes (public: forwarded to SSE clients). */
export type CronEvents = {
  "crons.run.started": CronRunRecord;
  "crons.run.finished": CronRunRecord;
};

declare module "@muster/plugin" {
  interface MusterEvents extends CronEvents {}
}
