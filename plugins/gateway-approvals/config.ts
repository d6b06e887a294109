import { z } from "@muster/plugin";

const kind = z.enum(["exec", "plugin", "openclaw"]);

/**
 * An auto-deny rule: a request matching every list it names is rejected at once, recorded as
 * decided by "policy" with the rule's name. There are no auto-approve rules on purpose:
 * silence is not approval, and neither is a rule.
 */
const autoDenyRule = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    /** Agent ids whose requests the rule denies; any agent when omitted. */
    agents: z.array(z.string().trim().min(1).max(128)).min(1).max(100).optional(),
    /** Request kinds the rule denies; any kind when omitted. */
    kinds: z.array(kind).min(1).optional(),
  })
  .refine((rule) => rule.agents !== undefined || rule.kinds !== undefined, { message: "a rule names agents, kinds or both (a rule denying everything would close the inbox)" });

/** `config["gateway-approvals"]` in muster.config.json (docs/approvals.md, "One inbox"). */
export const gatewayApprovalsConfig = z.strictObject({
  autoDeny: z.array(autoDenyRule).max(100).default([]),
  digest: z
    .strictObject({
      /** A digest notification is sent when more than this many gateway requests wait. */
      threshold: z.number().int().min(1).max(10_000).default(5),
      /** At most one digest per this interval. */
      intervalMs: z.number().int().min(1_000).max(7 * 24 * 60 * 60_000).default(15 * 60_000),
    })
    .default({ threshold: 5, intervalMs: 15 * 60_000 }),
});

export type GatewayApprovalsConfig = z.output<typeof gatewayApprovalsConfig>;
export type GatewayApprovalKind = z.output<typeof kind>;
export type AutoDenyRule = z.output<typeof autoDenyRule>;
