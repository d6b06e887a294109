import { createHmac, randomBytes } from "node:crypto";

export interface OAuth1Credentials {
  apiKey: string;
  apiSecret: string;
  accessToken: string;
  accessSecret: string;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a requires (encodeURIComponent leaves !'()* alone). */
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The `Authorization: OAuth …` header (HMAC-SHA1, RFC 5849) for a request whose body is JSON:
 * only the OAuth parameters and the URL's query are signed, as X's v2 API expects.
 */
export function oauth1Header(method: string, url: string, c: OAuth1Credentials, nonce = randomBytes(16).toString("hex"), timestamp = Math.floor(Date.now() / 1000)): string {
  const u = new URL(url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: c.apiKey,
    oauth_nonce: nonce,
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: String(timestamp),
    oauth_token: c.accessToken,
    oauth_version: "1.0",
  };
  const params = [...Object.entries(oauth), ...u.searchParams.entries()].map(([k, v]) => [enc(k), enc(v)] as const);
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  const base = [method.toUpperCase(), enc(`${u.origin}${u.pathname}`), enc(params.map(([k, v]) => `${k}=${v}`).join("&"))].join("&");
  const signature = createHmac("sha1", `${enc(c.apiSecret)}&${enc(c.accessSecret)}`).update(base).digest("base64");
  const header = { ...oauth, oauth_signature: signature };
  return `OAuth ${Object.entries(header).map(([k, v]) => `${enc(k)}="${enc(v)}"`).join(", ")}`;
}
