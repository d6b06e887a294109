import type { PlatformHttp } from "./platform-http.ts";

/** What a platform accepts; content over any of them is refused (400 `CONTENT_OVER_LIMIT`) before an approval exists. */
export interface PlatformLimits {
  /** Characters, counted as Unicode code points. */
  maxLength: number;
  /** `#tag` words; null when the platform sets no limit. */
  maxHashtags: number | null;
  /** Media items per post; 0 when this adapter posts text only. */
  maxMedia: number;
  /** Content types accepted for media (checked when the media is fetched). */
  mediaTypes: string[];
}

export interface MediaItem {
  url: string;
}

/** Exactly what the human approved for one platform. */
export interface PostContent {
  title: string;
  text: string;
  media: MediaItem[];
}

export interface PublishedPost {
  postId: string | null;
  postUrl: string | null;
}

/** Reads a vault secret by name (null when absent). */
export type SecretSource = (name: string) => string | null;

export interface PublishContext {
  secrets: SecretSource;
  http: PlatformHttp;
  /** The outbox entry's id: an idempotency key for platforms that honour one. */
  entryId: string;
}

/** One publishing platform: its limits, the secret it needs, and how a post is made. */
export interface PlatformAdapter {
  id: string;
  name: string;
  limits: PlatformLimits;
  /** The vault secret holding its credential (DESIGN §14.10, reference facts §5.8). */
  secret: string;
  /** Whether the credential is stored and well formed. */
  configured(secrets: SecretSource): boolean;
  /** Makes the post. Throws {@link PlatformFailure} (platform-http.ts) on any failure. */
  publish(content: PostContent, context: PublishContext): Promise<PublishedPost>;
}
