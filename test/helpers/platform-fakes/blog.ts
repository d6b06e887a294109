// A generic blog/webhook receiver: `POST /hook` with `{ title, text, media }`, a bearer token
// and an Idempotency-Key; answers `{ id, url }`.
import { startFakeServer, send, type FakeServer } from "./fake-server.ts";

export const BLOG_TOKEN = "blog-token-5e6f7a8b";

export interface BlogFake extends FakeServer {
  posts: { body: any /* whatever Muster sent, read field by field */; idempotencyKey: string | undefined }[];
}

export async function startBlogFake(): Promise<BlogFake> {
  const posts: BlogFake["posts"] = [];
  const fake = await startFakeServer((route) => {
    if (route !== "POST /hook") return undefined;
    return (r, res) => {
      if (r.headers.authorization !== `Bearer ${BLOG_TOKEN}`) return send(res, 401, { error: "unauthorised" });
      posts.push({ body: r.json, idempotencyKey: r.headers["idempotency-key"] as string | undefined });
      send(res, 201, { id: `post-${posts.length}`, url: `https://blog.example.test/p/${posts.length}` });
    };
  });
  return Object.assign(fake, { posts });
}
