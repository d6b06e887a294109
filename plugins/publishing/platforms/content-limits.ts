import type { ErrorDetail } from "@muster/plugin";
import type { PlatformLimits, PostContent } from "./platform.ts";

const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;

/** Characters as the platforms count them for their limits (code points, so an emoji is one). */
export const lengthOf = (text: string): number => [...text].length;
export const hashtagsIn = (text: string): number => text.match(HASHTAG)?.length ?? 0;

/** Every way `content` exceeds `limits`, as validation details (empty when it fits). */
export function overLimits(content: Pick<PostContent, "text" | "media">, limits: PlatformLimits): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const length = lengthOf(content.text);
  if (length > limits.maxLength) problems.push({ path: "text", reason: `${length} characters; at most ${limits.maxLength}` });
  const tags = hashtagsIn(content.text);
  if (limits.maxHashtags !== null && tags > limits.maxHashtags) problems.push({ path: "text", reason: `${tags} hashtags; at most ${limits.maxHashtags}` });
  if (content.media.length > limits.maxMedia) {
    problems.push({ path: "media", reason: limits.maxMedia === 0 ? "this platform's adapter posts text only" : `${content.media.length} media items; at most ${limits.maxMedia}` });
  }
  return problems;
}
