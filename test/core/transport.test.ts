import { suite } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { withTestHost } from "../helpers/start-test-host.ts";

const t = suite("transport limits");

const SECURITY_HEADERS = ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options", "cache-control"];

/** Sends raw bytes and collects everything the server writes until it closes the socket. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.on("close", () => resolve(received));
    socket.on("error", () => undefined);
    setTimeout(() => reject(new Error(`still open after 5 s; received ${JSON.stringify(received.slice(0, 200))}`)), 5_000).unref();
  });
}

/** Status, lower-cased headers and body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string) {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const [statusLine, ...lines] = head!.split("\r\n");
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine!.split(" ")[1]), headers, body: rest.join("\r\n\r\n") };
}

function assertSecurityHeaders(answer: ReturnType<typeof parseAnswer>, what: string) {
  for (const name of SECURITY_HEADERS) assert.ok(answer.headers.get(name), `${what}: ${name}`);
  assert.is(answer.headers.get("cache-control"), "no-store");
  assert.match(answer.headers.get("content-security-policy")!, /default-src 'self'/);
}

t("a client dribbling its headers (slowloris) is disconnected after headersTimeout", async () => {
  await withTestHost({ config: { headersTimeoutMs: 400 } }, async (h) => {
    const port = Number(new URL(h.url).port);
    const started = Date.now();
    let received = "";
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
      const drip = setInterval(() => socket.writable && socket.write("X-Drip: 1\r\n"), 100);
      socket.on("data", (chunk) => (received += chunk));
      socket.on("close", () => {
        clearInterval(drip);
        resolve(Date.now() - started);
      });
      socket.on("error", () => undefined);
      setTimeout(() => reject(new Error("still connected after 5 s")), 5_000);
    });
    assert.ok(closedAfter >= 300 && closedAfter < 3_000, `closed after ${closedAfter} ms`);
    const answer = parseAnswer(received);
    assert.is(answer.status, 408, "Node's timeout answer");
    assertSecurityHeaders(answer, "408");
    assert.is(JSON.parse(answer.body).error.code, "REQUEST_TIMEOUT");
    assert.is((await h.json("/api/health")).status, 200, "other clients unaffected");
  });
});

t("answers Node writes itself (malformed request 400, headers too large 431) carry the security headers and close", async () => {
  await withTestHost(async (h) => {
    const port = Number(new URL(h.url).port);
    const cases: [string, string, number, string][] = [
      ["malformed request line", "GARBAGE\r\n\r\n", 400, "MALFORMED_REQUEST"],
      ["bad header syntax", "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n", 400, "MALFORMED_REQUEST"],
      ["headers over the limit", `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431, "HEADERS_TOO_LARGE"],
    ];
    for (const [what, request, status, code] of cases) {
      const answer = parseAnswer(await rawExchange(port, request));
      assert.is(answer.status, status, what);
      assertSecurityHeaders(answer, what);
      assert.is(answer.headers.get("connection"), "close", what);
      assert.is(JSON.parse(answer.body).error.code, code, what);
    }
    assert.is((await h.json("/api/health")).status, 200, "the server is unaffected");
  });
});

t("a request without a Host header (HTTP/1.0 or 1.1) is refused with 400 HOST_HEADER_REQUIRED, no data", async () => {
  await withTestHost(async (h) => {
    const port = Number(new URL(h.url).port);
    await h.json("/api/tasks", { method: "POST", body: { title: "not for hostless eyes" } });
    for (const version of ["1.0", "1.1"]) {
      const answer = parseAnswer(await rawExchange(port, `GET /api/tasks HTTP/${version}\r\nConnection: close\r\n\r\n`));
      assert.is(answer.status, 400, `HTTP/${version}`);
      assert.is(JSON.parse(answer.body).error.code, "HOST_HEADER_REQUIRED");
      assertSecurityHeaders(answer, `HTTP/${version}`);
      assert.not.match(answer.body, /hostless/);
      const empty = parseAnswer(await rawExchange(port, `GET /api/tasks HTTP/${version}\r\nHost:\r\nConnection: close\r\n\r\n`));
      assert.is(empty.status, 400, `HTTP/${version} with an empty Host`);
    }
    const withHost = parseAnswer(await rawExchange(port, "GET /api/tasks HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"));
    assert.is(withHost.status, 200, "HTTP/1.0 with a loopback Host is served");
  });
});

t("every DELETE route in the API requires the session token (route inventory)", async () => {
  await withTestHost(async (h) => {
    const doc = (await h.json("/api/openapi.json")).body as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    let deletes = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (method === "delete") {
          deletes += 1;
          assert.ok(operation.security?.length, `DELETE ${path} declares the session token`);
          const concrete = path.replace(/\{[^}]+\}/g, "x");
          const res = await h.json(concrete, { method: "DELETE" });
          assert.is(res.status, 401, `DELETE ${path} without the token`);
        }
      }
    }
    assert.ok(deletes >= 5);
  });
});

t("bodies nested too deeply are refused without recursing, and parse errors never quote the body", async () => {
  await withTestHost(async (h) => {
    for (const depth of [65, 3_000, 200_000]) {
      const body = `{"agentId":"a","action":"b","details":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      const res = await h.json("/api/activities", { method: "POST", body, headers: { "content-type": "application/json" } });
      assert.is(res.status, 400, `depth ${depth}`);
      assert.is(res.body.error!.code, "INVALID_JSON");
      assert.match(res.body.error!.message, /nested more than 64 levels/);
    }
    const approval = `{"title":"t","type":"x","requestedBy":"a","context":"c","payload":${"[".repeat(3_000)}${"]".repeat(3_000)}}`;
    const deepPayload = await h.json("/api/approvals", { method: "POST", body: approval, headers: { "content-type": "application/json" } });
    assert.is(deepPayload.status, 400, "a recursive validator never sees it");
    const shallow = await h.json("/api/approvals", { method: "POST", body: { title: "t", type: "x", requestedBy: "a", context: "c", payload: { a: [[[1]]] } } });
    assert.is(shallow.status, 201);
    const leaky = await h.json("/api/activities", { method: "POST", body: '{"agentId":"a","action":"SECRETVALUE99","n":tru}', headers: { "content-type": "application/json" } });
    assert.is(leaky.status, 400);
    assert.is(leaky.body.error!.code, "INVALID_JSON");
    assert.not.match(JSON.stringify(leaky.body), /SECRETVALUE99|tru\}/);
    assert.is((await h.json("/api/activities")).body.length, 1, "only the approval's own activity, nothing from the refused bodies");
  });
});

t.run();
