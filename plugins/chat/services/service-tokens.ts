// The chat plugin's own services, for its hooks; other plugins get the interfaces of tokens.ts.
import { token } from "@muster/plugin";
import type { TurnRunner } from "./turn-runner.ts";

export const TURN_RUNNER = token<TurnRunner>("chat.turnRunner");
