import { defineErrors } from "@muster/plugin";

/** The council plugin's error catalogue (agents and gateway failures use chat's and the host's codes). */
export const councilErrors = defineErrors("council", {
  COUNCIL_SESSION_NOT_FOUND: { status: 404, message: "No council session with id {id}" },
});
