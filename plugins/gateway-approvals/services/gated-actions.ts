import { defineGatedAction } from "@muster/plugin";
import { GATEWAY_APPROVALS } from "../tokens.ts";
import { KINDS } from "./kinds.ts";

/** One gated action per kind of gateway request, named in the gateway's namespace (`openclaw.exec`, ...). */
export const gatewayApprovalActions = KINDS.map((spec) =>
  defineGatedAction({
    kind: spec.command,
    exemptFromPrefix: "the gateway's own request kinds (openclaw.exec, openclaw.plugin, openclaw.approval), shown in approvals' command field and documented",
    deps: { inbox: GATEWAY_APPROVALS },
    create: ({ inbox }) => inbox.gatedAction(spec),
  }),
);
