// The agents plugin's own services, for its routes, hooks and gated actions; other plugins get
// the CREW capability (tokens.ts). Type imports only, so that any file may import these tokens
// without an import cycle through the services that use them.
import { token } from "@muster/plugin";
import type { AgentDirectoryService } from "./agent-directory.ts";
import type { AgentFactory } from "./agent-factory.ts";
import type { AgentStore } from "./agent-store.ts";
import type { CrewRegistration } from "./crew-registration.ts";
import type { CrewWriter } from "./crew-writer.ts";
import type { Heartbeat } from "./heartbeat.ts";
import type { PackService } from "./pack-service.ts";
import type { SessionSnapshot } from "./session-snapshot.ts";
import type { StuckEscalation } from "./stuck-escalation.ts";

export const STORE = token<AgentStore>("agents.store");
export const SESSIONS = token<SessionSnapshot>("agents.sessions");
export const DIRECTORY = token<AgentDirectoryService>("agents.directoryService");
export const WRITER = token<CrewWriter>("agents.crewWriter");
export const FACTORY = token<AgentFactory>("agents.factory");
export const REGISTRATION = token<CrewRegistration>("agents.crewRegistration");
export const PACKS = token<PackService>("agents.packs");
export const HEARTBEAT = token<Heartbeat>("agents.heartbeat");
export const ESCALATION = token<StuckEscalation>("agents.stuckEscalation");
