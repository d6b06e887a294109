import { defineErrors } from "@muster/plugin";

/** Errors of the `stream` plugin. */
export const streamErrors = defineErrors({
  STREAM_TOO_MANY_CLIENTS: { status: 503, message: (p) => `The live stream already serves ${p.limit} clients; retry later` },
});
