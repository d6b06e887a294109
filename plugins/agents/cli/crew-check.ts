import { join } from "node:path";
import { contribute, hostPoints, type DoctorFinding } from "@muster/plugin";
import { ORG_FILE, organisationAgentIds } from "../services/org-file.ts";

const REGISTER_FIX =
  "register them with one approval while the server runs: curl -X POST http://127.0.0.1:<PORT>/api/agents/register-missing, then muster approvals approve <approvalId>";

/**
 * `muster doctor`'s "crew registered": every agent of the organisation file must be in the
 * gateway's agents.list, or chat with it answers 409 AGENT_NOT_REGISTERED. It runs after the
 * gateway steps (it needs what agents.list returned) and reads the file itself: doctor runs
 * without a server.
 */
export const crewDoctorCheck = contribute(hostPoints.doctorChecks, {
  id: "crew",
  name: "crew registered",
  needs: ["gateway.agents", "workspace"],
  async run({ workspace, gatewayAgentIds }): Promise<DoctorFinding> {
    const crew = await organisationAgentIds(join(workspace, ORG_FILE));
    if (crew === null) return { status: "ok", detail: `no organisation file (${ORG_FILE}) yet; nothing to register` };
    const known = new Set(gatewayAgentIds);
    const missing = crew.filter((id) => !known.has(id));
    if (missing.length === 0) return { status: "ok", detail: `all ${crew.length} agents of ${ORG_FILE} are in agents.list` };
    return {
      status: "fail",
      detail: `${missing.length} of ${crew.length} agents of ${ORG_FILE} are not registered with the gateway (chat with them answers 409 AGENT_NOT_REGISTERED): ${missing.join(", ")}`,
      fix: REGISTER_FIX,
    };
  },
});
