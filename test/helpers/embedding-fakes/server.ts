// A local fake of the embedding APIs the rag plugin talks to: Ollama's POST /api/embed and
// the OpenAI-compatible POST /v1/embeddings. Vectors come from the deterministic hashing
// embedding, so answers are real and repeatable; `behaviour` switches on the faults.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HashProvider } from "../../../plugins/rag/providers/hash.ts";

export type FakeBehaviour =
  | { kind: "ok" }
  | { kind: "down"; status: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "wrong-dimensions"; dimensions: number }
  | { kind: "nan" }
  /** Every component `value` (1e308 overflows a 32-bit float, 1e-46 underflows to 0, 0 is a zero vector). */
  | { kind: "constant"; value: number }
  | { kind: "wrong-count" }
  | { kind: "not-json" };

export interface EmbeddingFake {
  url: string;
  /** Texts received so far (every request's input, flattened). */
  received: string[];
  /** Authorization headers of /v1/embeddings requests. */
  authorizations: (string | undefined)[];
  behaviour: FakeBehaviour;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (data += c));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startEmbeddingFake(options: { dimensions: number; behaviour?: FakeBehaviour }): Promise<EmbeddingFake> {
  const fake: EmbeddingFake = { url: "", received: [], authorizations: [], behaviour: options.behaviour ?? { kind: "ok" }, close: async () => {} };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || "{}") as { input?: string[] | string };
    const input = Array.isArray(body.input) ? body.input : [String(body.input ?? "")];
    fake.received.push(...input);
    const b = fake.behaviour;
    if (b.kind === "down") return void res.writeHead(b.status).end("unavailable");
    if (b.kind === "not-json") return void res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    const dims = b.kind === "wrong-dimensions" ? b.dimensions : options.dimensions;
    let vectors = new HashProvider(dims).embed(input).then((vs) => vs.map((v) => Array.from(v) as (number | null)[]));
    if (b.kind === "constant") vectors = vectors.then((vs) => vs.map((v) => v.map(() => b.value)));
    if (b.kind === "nan") vectors = vectors.then((vs) => vs.map((v) => v.map((x, i) => (i === 0 ? null : x))));
    if (b.kind === "wrong-count") vectors = vectors.then((vs) => vs.slice(1));
    const list = await vectors;
    const payload = req.url === "/v1/embeddings" ? { object: "list", data: list.map((embedding, index) => ({ object: "embedding", index, embedding })) } : { model: "fake", embeddings: list };
    if (req.url === "/v1/embeddings") fake.authorizations.push(req.headers.authorization);
    const send = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
    if (b.kind === "slow") {
      const t = setTimeout(() => (timers.delete(t), send()), b.delayMs);
      timers.add(t);
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
