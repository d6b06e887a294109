// The live preview of a draft against each chosen platform's limits: characters and hashtags
// counted as the server counts them (plugins/publishing/platforms/content-limits.ts), so what
// the page calls "fits" is what the publish request accepts.
import { html, Badge } from "@muster/console";

export interface PlatformInfo {
  id: string;
  name: string;
  configured: boolean;
  secret: string;
  limits: { maxLength: number; maxHashtags: number | null; maxMedia: number };
}

const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;
const lengthOf = (text: string): number => [...text].length;
const hashtagsIn = (text: string): number => text.match(HASHTAG)?.length ?? 0;

export function LimitsPreview({ text, platforms }: { text: string; platforms: readonly PlatformInfo[] }) {
  if (platforms.length === 0) return html`<p class="meta">Choose a platform to see its limits.</p>`;
  const length = lengthOf(text);
  const tags = hashtagsIn(text);
  return html`<ul class="limits" aria-live="polite" aria-label="Length against each platform's limits">
    ${platforms.map((p) => {
      const over = length > p.limits.maxLength || (p.limits.maxHashtags !== null && tags > p.limits.maxHashtags);
      return html`<li key=${p.id} data-platform=${p.id}>
        <strong>${p.name}</strong>: ${length} / ${p.limits.maxLength} characters${p.limits.maxHashtags !== null ? `, ${tags} / ${p.limits.maxHashtags} hashtags` : ""}
        ${" "}<${Badge} tone=${over ? "bad" : "ok"}>${over ? "over the limit" : "fits"}<//>
        ${p.configured ? null : html`${" "}<${Badge} tone="warn" title=${`Store the vault secret ${p.secret} first`}>not configured<//>`}
      </li>`;
    })}
  </ul>`;
}
