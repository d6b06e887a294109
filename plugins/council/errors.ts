import { defineErrors } from "@muster/plugin";

/** The council plugin's error catalogue (unknown and unregistered agents are the agents plugin's `AGENT_NOT_FOUND` and `AGENT_NOT_REGISTERED`; gateway failures the host's codes). */
export const councilErrors = defineErrors("council", {
  COUNCIL_SESSION_NOT_FOUND: { status: 404, message: "No council session with id {id}" },
});
