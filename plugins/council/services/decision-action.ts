import { clip, defineGatedAction, hostTokens } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import { COUNCIL_DECISION, type CouncilDecisionPayload } from "./deliberation.ts";
import { COUNCIL_STORE } from "./service-tokens.ts";

/**
 * `council.decision`: approving ratifies an adopted proposal. It records the ratification on
 * the session, as an activity and a notification (when those plugins are loaded), and
 * publishes `council.session.ratified`; it does nothing outside Muster (the decision is for
 * humans and agents to act on).
 */
export const councilDecisionAction = defineGatedAction({
  kind: COUNCIL_DECISION,
  deps: { store: COUNCIL_STORE, events: hostTokens.events, logger: hostTokens.logger },
  optionalDeps: { activities: ACTIVITIES, notifications: NOTIFICATIONS },
  create: (deps) => ({
    describe: (payload: CouncilDecisionPayload) => `Ratify the council's decision on "${clip(payload.topic.replace(/\s+/g, " ").trim(), 120)}" (memo ${payload.memoPath}); records the ratification, nothing external`,
    async execute(payload: CouncilDecisionPayload, decision) {
      const at = new Date().toISOString();
      const first = await deps.store.ratify(payload.sessionId, decision.decidedBy, at);
      const subject = clip(payload.topic.replace(/\s+/g, " ").trim(), 80);
      deps.activities?.log({ agentId: "council", action: "council_decision_ratified", target: subject, details: `${decision.decidedBy} ratified session ${payload.sessionId} (approval ${decision.approvalId}); memo ${payload.memoPath}` });
      deps.notifications?.create({ type: "council", title: `Council decision ratified: ${subject}`, body: clip(payload.proposal, 2_000), priority: "normal" });
      const session = await deps.store.get(payload.sessionId);
      if (session) deps.events.publish("council.session.ratified", session, { public: true });
      else deps.logger.warn({ sessionId: payload.sessionId }, "ratified a council decision whose session no longer exists");
      return { ratified: true, sessionId: payload.sessionId, ratifiedAt: first ? at : session?.ratifiedAt ?? at, memoPath: payload.memoPath };
    },
  }),
});
