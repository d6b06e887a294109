import { defineErrors } from "@muster/plugin";

/** Error catalogue of the standup plugin: the host turns a thrown one into the error envelope. */
export const standupErrors = defineErrors("standup", {
  STANDUP_AGENT_REQUIRED: { status: 400, message: "A stand-up note is an agent's: send the X-Agent-Id header" },
});
