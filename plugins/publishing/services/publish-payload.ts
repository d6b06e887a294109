import { z } from "@muster/plugin";

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
