import { suite } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";

const t = suite("transport limits");

t("a client dribbling its headers (slowloris) is disconnected after headersTimeout", async () => {
  const h = await startTestHost({ config: { headersTimeoutMs: 400 } });
  try {
    const port = Number(new URL(h.url).port);
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
      const drip = setInterval(() => socket.writable && socket.write("X-Drip: 1\r\n"), 100);
      socket.on("data", () => undefined);
      socket.on("close", () => {
        clearInterval(drip);
        resolve(Date.now() - started);
      });
      socket.on("error", () => undefined);
      setTimeout(() => reject(new Error("still connected after 5 s")), 5_000);
    });
    assert.ok(closedAfter >= 300 && closedAfter < 3_000, `closed after ${closedAfter} ms`);
    assert.is((await h.json("/api/health")).status, 200, "other clients unaffected");
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t("every DELETE route in the API requires the session token (route inventory)", async () => {
  const h = await startTestHost();
  try {
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
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t("bodies nested too deeply are refused without recursing, and parse errors never quote the body", async () => {
  const h = await startTestHost();
  try {
    for (const depth of [65, 3_000, 200_000]) {
      const body = `{"agentId":"a","action":"b","details":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      const res = await h.json("/api/activities", { method: "POST", body, headers: { "content-type": "application/json" } });
      assert.is(res.status, 400, `depth ${depth}`);
      assert.is(res.body.error.code, "INVALID_JSON");
      assert.match(res.body.error.message, /nested more than 64 levels/);
    }
    const approval = `{"title":"t","type":"x","requestedBy":"a","context":"c","payload":${"[".repeat(3_000)}${"]".repeat(3_000)}}`;
    const deepPayload = await h.json("/api/approvals", { method: "POST", body: approval, headers: { "content-type": "application/json" } });
    assert.is(deepPayload.status, 400, "a recursive validator never sees it");
    const shallow = await h.json("/api/approvals", { method: "POST", body: { title: "t", type: "x", requestedBy: "a", context: "c", payload: { a: [[[1]]] } } });
    assert.is(shallow.status, 201);
    const leaky = await h.json("/api/activities", { method: "POST", body: '{"agentId":"a","action":"SECRETVALUE99","n":tru}', headers: { "content-type": "application/json" } });
    assert.is(leaky.status, 400);
    assert.is(leaky.body.error.code, "INVALID_JSON");
    assert.not.match(JSON.stringify(leaky.body), /SECRETVALUE99|tru\}/);
    assert.is((await h.json("/api/activities")).body.length, 1, "only the approval's own activity, nothing from the refused bodies");
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t.run();
