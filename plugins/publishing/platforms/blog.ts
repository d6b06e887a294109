import { z } from "@muster/plugin";
import { readJsonCredential } from "./json-credential.ts";
import { PlatformFailure } from "./platform-http.ts";
import type { PlatformAdapter, PostContent, PublishContext, PublishedPost, SecretSource } from "./platform.ts";

/** JSON `{ endpoint, token?, method? }` (reference facts §5.8). */
export const BLOG_SECRET = "BLOG_API_KEY";

const blogTarget = z.object({
  endpoint: z.url({ protocol: /^https?$/ }),
  token: z.string().min(1).optional(),
  method: z.enum(["POST", "PUT"]).default("POST"),
});
const target = (secrets: SecretSource) => readJsonCredential(secrets, BLOG_SECRET, blogTarget);

/**
 * A generic webhook or blog: the post is sent as JSON `{ title, text, media }` to the
 * endpoint in the secret, with an `Idempotency-Key` (the outbox entry id) so a receiver
 * that honours it can drop a repeat; the answer may carry `{ id, url }`.
 */
export class BlogAdapter implements PlatformAdapter {
  readonly id = "blog";
  readonly name = "Blog / webhook";
  readonly secret = BLOG_SECRET;
  readonly limits = { maxLength: 100_000, maxHashtags: null, maxMedia: 10, mediaTypes: ["image/jpeg", "image/png", "image/gif", "image/webp"] };

  configured(secrets: SecretSource): boolean {
    return target(secrets) !== null;
  }

  async publish(content: PostContent, { secrets, http, entryId }: PublishContext): Promise<PublishedPost> {
    const t = target(secrets);
    if (!t) throw new PlatformFailure("failed", `${BLOG_SECRET} is missing or not the JSON { endpoint, token?, method? }`);
    const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": entryId };
    if (t.token) headers.authorization = `Bearer ${t.token}`;
    const res = await http.call("delivering the post", t.endpoint, { method: t.method, headers, body: JSON.stringify({ title: content.title, text: content.text, media: content.media }) }, { creates: true });
    const body = await http.json<{ id?: unknown; url?: unknown }>(res);
    return { postId: typeof body?.id === "string" || typeof body?.id === "number" ? String(body.id) : null, postUrl: typeof body?.url === "string" ? body.url : null };
  }
}
