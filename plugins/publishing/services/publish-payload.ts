import { defineGatedAction, z } from "@muster/plugin";
import { OUTBOX, PUBLISH_KIND } from "../tokens.ts";

/**
 * The exact content a `publishing.publish` approval carries (hashed by the gate): what the
 * human reads is what each platform receives.
 */
export const publishPayload = z.strictObject({
  draftId: z.string().nullable(),
  title: z.string(),
  text: z.string(),
  media: z.array(z.strictObject({ url: z.string() })),
  platforms: z.array(z.string()).min(1),
  scheduledAt: z.string().nullable(),
});

export type PublishPayload = z.output<typeof publishPayload>;

export function describePublish(p: PublishPayload): string {
  const when = p.scheduledAt ? `at ${p.scheduledAt}` : "now";
  const media = p.media.length ? ` with ${p.media.length} media item(s)` : "";
  return `Publish to ${p.platforms.join(", ")} ${when}${media}: "${p.text}"`;
}

/**
 * `publishing.publish`: approving only queues the entries (fast: the deciding request is not
 * held by a platform); the outbox sends them. The executor's result lists the queued entries.
 */
export const publishAction = defineGatedAction({
  kind: PUBLISH_KIND,
  deps: { outbox: OUTBOX },
  create: ({ outbox }) => ({
    describe: (payload: unknown) => describePublish(publishPayload.parse(payload)),
    async execute(payload: unknown, decision) {
      const entries = await outbox.enqueueApproved(publishPayload.parse(payload), decision);
      return { outbox: entries.map(({ id, platform, status, dueAt }) => ({ id, platform, status, dueAt })) };
    },
  }),
});
