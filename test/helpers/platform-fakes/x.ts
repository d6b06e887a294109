// X's v2 create-post shape: `POST /2/tweets` `{ text }` with OAuth 1.0a user context → 201
// `{ data: { id, text } }`; errors as `{ title, detail, type, status }`.
import { startFakeServer, send, type FakeServer } from "./fake-server.ts";

export const X_CREDENTIALS = { apiKey: "x-consumer-key-11aa", apiSecret: "x-consumer-secret-22bb", accessToken: "x-access-token-33cc", accessSecret: "x-access-secret-44dd" };

export interface XFake extends FakeServer {
  posts: { text: string; authorization: string }[];
}

export async function startXFake(): Promise<XFake> {
  const posts: XFake["posts"] = [];
  const fake = await startFakeServer((route) => {
    if (route !== "POST /2/tweets") return undefined;
    return (r, res) => {
      const auth = String(r.headers.authorization ?? "");
      if (!auth.startsWith("OAuth ") || !auth.includes(`oauth_consumer_key="${X_CREDENTIALS.apiKey}"`) || !auth.includes("oauth_signature=")) {
        return send(res, 401, { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" });
      }
      posts.push({ text: r.json?.text, authorization: auth });
      send(res, 201, { data: { id: `18${posts.length}0000000000000000`, text: r.json?.text, edit_history_tweet_ids: [`18${posts.length}0000000000000000`] } });
    };
  });
  return Object.assign(fake, { posts });
}
