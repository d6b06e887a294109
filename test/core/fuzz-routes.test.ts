// Property test over every JSON route in the OpenAPI document: random bodies and query
// strings never produce a 5xx, always produce the JSON envelope, and never echo a stored
// vault value. Seeded, so a failure reproduces; bounded in requests.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { waitUntil } from "../helpers/wait.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const BODIES_PER_ROUTE = 25;
const SECRET = "fuzz-secret-value-9f2c1d";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const tricky = ["", " ", "..", "../../etc/passwd", "%2e%2e", "\u0000", "\u202e", "🦀", "x".repeat(5000), "null", "true", "0", "-1", "1e309",
  "__proto__", "constructor", "<script>", "' OR 1=1 --", "\n\nevent: x\ndata: {}", "http://127.0.0.1:1/", "2026-02-30", "done", "approved"];

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 2 ? 6 : 9));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return [0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, 42][Math.floor(r() * 7)];
    case 3: case 4: case 5: return tricky[Math.floor(r() * tricky.length)];
    case 6: return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
    default: return object(r, depth + 1, []);
  }
}

function object(r: () => number, depth: number, knownKeys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const key = r() < 0.7 && knownKeys.length ? knownKeys[Math.floor(r() * knownKeys.length)]! : tricky[Math.floor(r() * tricky.length)]!;
    out[key] = value(r, depth);
  }
  return out;
}

type Operation = { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }; parameters?: { name: string; in: string }[]; responses: Record<string, { description: string }> };

const t = suite<{ h: TestHost; gw: FakeGateway }>("route fuzzing");
t.before(async (ctx) => {
  // A connected (fake) gateway: the gateway-backed routes are fuzzed as they run, not as 503s.
  ctx.gw = await FakeGateway.start({ token: "fuzz-gateway-token" });
  ctx.h = await startTestHost({ config: { vaultKey: "fuzz passphrase for the test vault", gatewayUrl: ctx.gw.url, gatewayToken: "fuzz-gateway-token" } });
  await waitUntil(async () => (await ctx.h.json("/api/health")).body.gateway.state === "connected", { label: "gateway connected" });
  const seeded = await ctx.h.json("/api/vault", { method: "POST", body: { name: "FUZZ_SECRET", value: SECRET }, session: true });
  assert.is(seeded.status, 201, JSON.stringify(seeded.body));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.gw.stop();
  removeHome(ctx.h.home);
});

t("random bodies and queries never yield a 5xx or leak a secret", async ({ h }) => {
  const doc = (await h.json("/api/openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
  const r = rng(SEED);
  let requests = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (Object.values(operation.responses).some((resp) => resp.description === "Streamed response")) continue;
      const keys = Object.keys(operation.requestBody?.content["application/json"]?.schema.properties ?? {});
      const queryNames = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      for (let i = 0; i < BODIES_PER_ROUTE; i++) {
        const concrete = path.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(value(r, 3) ?? "x")) || "x");
        const params = new URLSearchParams();
        for (const name of [...queryNames, "junk"]) if (r() < 0.5) params.set(name, String(value(r, 3)));
        const url = `${concrete}${params.size ? `?${params}` : ""}`;
        const body = method === "get" ? undefined : r() < 0.8 ? object(r, 0, keys) : value(r, 0);
        const res = await h.json(url, { method: method.toUpperCase(), body: body === undefined ? undefined : JSON.stringify(body), headers: body === undefined ? {} : { "content-type": "application/json" }, session: r() < 0.5 });
        requests += 1;
        const label = `${method.toUpperCase()} ${url} ${JSON.stringify(body)?.slice(0, 300)} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
        assert.ok(res.status < 500, label);
        assert.type(res.body, "object", label);
        if (res.status >= 400) assert.type(res.body?.error?.code, "string", label);
        const text = JSON.stringify(res.body);
        if (!(path === "/api/vault/reveal" && res.status === 200)) assert.not.ok(text.includes(SECRET), `secret leaked: ${label}`);
      }
    }
  }
  assert.ok(requests > 100, `only ${requests} requests made`);
});

t.run();
