// The dispatch plugin's own services, for its hooks and gated action; other plugins get `DISPATCH`.
import { token } from "@muster/plugin";
import type { DispatchService } from "./dispatch-service.ts";
import type { ReviewFlow } from "./review-flow.ts";

export const DISPATCH_SERVICE = token<DispatchService>("dispatch.dispatcher");
export const REVIEW_FLOW = token<ReviewFlow>("dispatch.reviewFlow");
