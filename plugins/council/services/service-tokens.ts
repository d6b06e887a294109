// The council plugin's own pieces, for its hooks and gated action; other plugins get `COUNCIL`.
import { token } from "@muster/plugin";
import type { CouncilService } from "./council-service.ts";
import type { CouncilStore } from "./council-store.ts";

export const COUNCIL_STORE = token<CouncilStore>("council.store");
export const COUNCIL_RUNNER = token<CouncilService>("council.runner");
