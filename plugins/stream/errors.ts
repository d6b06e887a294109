import { defineErrors } from "@muster/plugin";

/** Errors of the `stream` plugin. */
export const streamErrors = defineErrors("stream", {
  STREAM_TOO_MANY_CLIENTS: { status: 503, message: "The live stream already serves {limit} clients; retry later" },
  STREAM_EVENT_FAMILY_INVALID: { status: 500, message: 'Plugin "{plugin}" describes the event family "{pattern}": {reason}' },
});
