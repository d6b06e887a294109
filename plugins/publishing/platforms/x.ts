import { z } from "@muster/plugin";
import { readJsonCredential } from "./json-credential.ts";
import { oauth1Header, type OAuth1Credentials } from "./oauth1.ts";
import { PlatformFailure } from "./platform-http.ts";
import type { PlatformAdapter, PostContent, PublishContext, PublishedPost, SecretSource } from "./platform.ts";

/** JSON `{ apiKey, apiSecret, accessToken, accessSecret }` (reference facts §5.8). */
export const X_SECRET = "TWITTER_API_KEY";

const oauthCredentials = z.object({ apiKey: z.string().min(1), apiSecret: z.string().min(1), accessToken: z.string().min(1), accessSecret: z.string().min(1) });
const credentials = (secrets: SecretSource): OAuth1Credentials | null => readJsonCredential(secrets, X_SECRET, oauthCredentials);

/** X: `POST /2/tweets` with `{ text }`, signed with OAuth 1.0a user context. Text only (media upload is not implemented). */
export class XAdapter implements PlatformAdapter {
  readonly id = "x";
  readonly name = "X";
  readonly secret = X_SECRET;
  readonly limits = { maxLength: 280, maxHashtags: 5, maxMedia: 0, mediaTypes: [] };
  private readonly apiBaseUrl: string;
  constructor(options: { apiBaseUrl: string }) {
    this.apiBaseUrl = options.apiBaseUrl;
  }

  configured(secrets: SecretSource): boolean {
    return credentials(secrets) !== null;
  }

  async publish(content: PostContent, { secrets, http }: PublishContext): Promise<PublishedPost> {
    const c = credentials(secrets);
    if (!c) throw new PlatformFailure("failed", `${X_SECRET} is missing or not the JSON { apiKey, apiSecret, accessToken, accessSecret }`);
    const url = `${this.apiBaseUrl}/2/tweets`;
    const res = await http.call(
      "creating the post",
      url,
      { method: "POST", headers: { authorization: oauth1Header("POST", url, c), "content-type": "application/json" }, body: JSON.stringify({ text: content.text }) },
      { creates: true },
    );
    const id = (await http.json<{ data?: { id?: string } }>(res))?.data?.id ?? null;
    return { postId: id, postUrl: id ? `https://x.com/i/web/status/${id}` : null };
  }
}
