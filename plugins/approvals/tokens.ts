import { token } from "@muster/plugin";
import type { ApprovalService } from "./services/approval-service.ts";

/**
 * The approval queue service (create, list, decide). Plugins that request external actions
 * use `ctx.gate` instead; this token is for plugins that decide on a human's behalf through
 * another channel (the messenger webhook's inline buttons). Depend on `approvals` to use it.
 */
export const APPROVALS = token<ApprovalService>("approvals.service");
