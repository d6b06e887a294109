import type { AddressPolicy } from "@muster/plugin";
import { fetchMedia } from "./fetch-media.ts";
import { PlatformFailure, type PlatformHttp } from "./platform-http.ts";
import type { PlatformAdapter, PostContent, PublishContext, PublishedPost, SecretSource } from "./platform.ts";

export const LINKEDIN_TOKEN = "LINKEDIN_ACCESS_TOKEN";
/** Optional: the author URN; without it the author comes from `/v2/userinfo`'s `sub`. */
export const LINKEDIN_PERSON_URN = "LINKEDIN_PERSON_URN";

export interface LinkedInOptions {
  apiBaseUrl: string;
  /** `LinkedIn-Version` of the REST API (YYYYMM). */
  version: string;
  maxImageBytes: number;
  /** Where a media URL may point (config `publishing.blockedAddressRanges`). */
  mediaAddresses: AddressPolicy;
}

/** The OpenID userinfo answer (the fields Muster reads). */
export interface LinkedInProfile {
  sub: string;
  name: string;
  email: string;
}

/**
 * Characters LinkedIn's "little text" commentary format reserves: unescaped they are read as
 * markup and the post is cut at the first one. `#` stays, so hashtags keep working.
 */
const RESERVED = /[\\|{}@[\]()<>*_~]/g;
export const escapeCommentary = (text: string): string => text.replace(RESERVED, (c) => `\\${c}`);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The professional network (LinkedIn REST shapes, reference facts §12.2), image posts included. */
export class LinkedInAdapter implements PlatformAdapter {
  readonly id = "linkedin";
  readonly name = "LinkedIn (professional network)";
  readonly secret = LINKEDIN_TOKEN;
  readonly limits = { maxLength: 3000, maxHashtags: 7, maxMedia: 1, mediaTypes: ["image/jpeg", "image/png", "image/gif"] };
  private readonly options: LinkedInOptions;
  constructor(options: LinkedInOptions) {
    this.options = options;
  }

  configured(secrets: SecretSource): boolean {
    return !!secrets(LINKEDIN_TOKEN);
  }

  /** `GET /v2/userinfo`: the connected member. Throws {@link PlatformFailure} (a 401 is `failed` with the status in the message). */
  async profile(token: string, http: PlatformHttp): Promise<LinkedInProfile> {
    const res = await http.call("reading the profile", `${this.options.apiBaseUrl}/v2/userinfo`, { headers: bearer(token) });
    const body = await http.json<Partial<LinkedInProfile>>(res);
    if (!body || typeof body.sub !== "string") throw new PlatformFailure("failed", "reading the profile: the answer has no sub");
    return { sub: body.sub, name: String(body.name ?? ""), email: String(body.email ?? "") };
  }

  async publish(content: PostContent, { secrets, http }: PublishContext): Promise<PublishedPost> {
    const token = secrets(LINKEDIN_TOKEN);
    if (!token) throw new PlatformFailure("failed", `${LINKEDIN_TOKEN} is no longer in the vault`);
    const author = await this.author(token, secrets(LINKEDIN_PERSON_URN), http);
    const headers = { ...bearer(token), "content-type": "application/json", "linkedin-version": this.options.version, "x-restli-protocol-version": "2.0.0" };
    const image = content.media[0] ? await this.uploadImage(content.media[0].url, author, token, http) : null;
    const post = {
      author,
      commentary: escapeCommentary(content.text),
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
      ...(image ? { content: { media: { id: image } } } : {}),
    };
    const res = await http.call("creating the post", `${this.options.apiBaseUrl}/rest/posts`, { method: "POST", headers, body: JSON.stringify(post) }, { creates: true });
    // The header already holds the whole URN (urn:li:share:…); it is kept as is, never prefixed again.
    const urn = res.headers.get("x-restli-id");
    await res.body?.cancel().catch(() => {});
    return { postId: urn, postUrl: urn ? `https://www.linkedin.com/feed/update/${urn}` : null };
  }

  private async author(token: string, configured: string | null, http: PlatformHttp): Promise<string> {
    if (configured && /^urn:li:person:[A-Za-z0-9_-]+$/.test(configured)) return configured;
    return `urn:li:person:${(await this.profile(token, http)).sub}`;
  }

  /** initializeUpload, then PUT the bytes; returns the image URN. Nothing is posted if any step fails. */
  private async uploadImage(url: string, owner: string, token: string, http: PlatformHttp): Promise<string> {
    const { bytes } = await fetchMedia(http, this.options.mediaAddresses, url, this.options.maxImageBytes, this.limits.mediaTypes);
    const init = await http.call("initialising the image upload", `${this.options.apiBaseUrl}/rest/images?action=initializeUpload`, {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json", "linkedin-version": this.options.version, "x-restli-protocol-version": "2.0.0" },
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    });
    const value = (await http.json<{ value?: { uploadUrl?: string; image?: string } }>(init))?.value;
    if (!value?.uploadUrl || !value.image) throw new PlatformFailure("failed", "initialising the image upload: the answer has no uploadUrl or image");
    // The token goes only to LinkedIn's own hosts (or the configured API origin), never to an upload URL elsewhere.
    const target = new URL(value.uploadUrl);
    const trusted = target.origin === new URL(this.options.apiBaseUrl).origin || /(^|\.)linkedin\.com$/.test(target.hostname);
    await http.call("uploading the image", value.uploadUrl, {
      method: "PUT",
      headers: { ...(trusted ? bearer(token) : {}), "content-type": "application/octet-stream" },
      body: new Uint8Array(bytes),
    });
    return value.image;
  }
}
