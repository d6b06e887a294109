// The professional network's REST shapes (reference facts §12.2): OpenID userinfo, the Posts
// API (201, the post's URN in x-restli-id), the Images API's initializeUpload and the upload
// PUT, and an image to fetch. Errors are LinkedIn's `{ status, serviceErrorCode, message }`.
import { startFakeServer, send, type FakeServer } from "./fake-server.ts";

export const LINKEDIN_TOKEN_VALUE = "li-access-token-7f3a9c2e5b";
/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a5e00000000049454e44ae426082",
  "hex",
);

/** What the next post request meets: created (201), refused with a status (429 with Retry-After seconds), or created with its answer lost (`hang`). */
export type PostPlan = "ok" | "hang" | { status: number; retryAfter?: string };

export interface LinkedInFake extends FakeServer {
  /** Bodies of the posts the platform created (a hung request created its post; only the answer was lost); `any`: whatever Muster sent, read field by field. */
  posts: any[];
  profile: { sub: string; name: string; email: string };
  /** Queues what the next post requests meet (default `ok`). */
  planPosts(...plans: PostPlan[]): void;
}

export async function startLinkedInFake(): Promise<LinkedInFake> {
  const profile = { sub: "782bbtaQ", name: "Ada Lovelace", email: "ada@example.test" };
  const posts: LinkedInFake["posts"] = [];
  const plans: PostPlan[] = [];
  let uploads = 0;
  const authorised = (headers: Record<string, unknown>) => headers.authorization === `Bearer ${LINKEDIN_TOKEN_VALUE}`;
  const unauthorised = { status: 401, serviceErrorCode: 65600, code: "INVALID_ACCESS_TOKEN", message: "Invalid access token" };
  const fake = await startFakeServer((route, req) => {
    if (route === "GET /v2/userinfo") {
      return (_r, res) => (authorised(req.headers) ? send(res, 200, { ...profile, email_verified: true, locale: { country: "GB", language: "en" } }) : send(res, 401, unauthorised));
    }
    if (route === "POST /rest/posts") {
      return (r, res) => {
        if (!authorised(r.headers)) return send(res, 401, unauthorised);
        const plan = plans.shift() ?? "ok";
        if (plan === "hang") return void posts.push(r.json);
        if (plan !== "ok") {
          const message = plan.status === 429 ? "Resource level throttle limit for calls to this resource is reached" : "Internal Server Error";
          return send(res, plan.status, { status: plan.status, message }, plan.retryAfter ? { "retry-after": plan.retryAfter } : {});
        }
        posts.push(r.json);
        res.writeHead(201, { "x-restli-id": `urn:li:share:70000000000000${posts.length}`, "x-linkedin-id": String(posts.length) });
        res.end();
      };
    }
    if (route === "POST /rest/images") {
      return (r, res) => {
        if (!authorised(r.headers)) return send(res, 401, unauthorised);
        uploads += 1;
        send(res, 200, { value: { uploadUrlExpiresAt: Date.now() + 3_600_000, uploadUrl: `${fake.url}/upload/${uploads}`, image: `urn:li:image:C4E${uploads}` } });
      };
    }
    if (route.startsWith("PUT /upload/")) return (_r, res) => (res.writeHead(201), res.end());
    if (route === "GET /media/pic.png") return (_r, res) => (res.writeHead(200, { "content-type": "image/png" }), res.end(PNG));
    if (route === "GET /media/page.html") return (_r, res) => (res.writeHead(200, { "content-type": "text/html" }), res.end("<html></html>"));
    return undefined;
  });
  return Object.assign(fake, { posts, profile, planPosts: (...p: PostPlan[]) => void plans.push(...p) });
}
