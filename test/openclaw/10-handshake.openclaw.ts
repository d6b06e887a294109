// The real gateway itself, with a bare protocol client (not Muster's): the handshake the
// host's client relies on, a refused token, and a chat that reaches the fake model and
// comes back. Then Muster's own client: /api/health reads `connected`.
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { bareChat, connectBare, GatewayCallError, OPERATOR_SCOPES } from "../../scripts/openclaw-peer/bare-client.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
// The first turns after a gateway start took 106 s at a load of 12-18 on 2 CPUs: the run's own bound stretches with the load, as the test's does.
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";
import { gatewayHealth, withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";

const test = suite("handshake");

boundedTest(test, "the gateway sends connect.challenge first and grants exactly the scopes asked for", 20_000, async () => {
  const { gateway } = peer();
  const client = await connectBare(gateway.url, gateway.token);
  try {
    assert.type(client.challenge.nonce, "string");
    assert.type(client.challenge.ts, "number");
    assert.is(client.hello.type, "hello-ok");
    assert.is(client.hello.protocol, 4);
    assert.equal([...client.hello.auth.scopes].sort(), [...OPERATOR_SCOPES].sort());
    const agents = await client.call("agents.list");
    assert.equal(agents.agents.map((a: { id: string }) => a.id).sort(), ["helper", "main"]);
  } finally {
    await client.close();
  }
});

boundedTest(test, "a wrong token is refused with AUTH_TOKEN_MISMATCH", 20_000, async () => {
  const { gateway } = peer();
  const error = await connectBare(gateway.url, `${gateway.token}-wrong`).then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(error, GatewayCallError);
  assert.is((error as GatewayCallError).error.details?.code, "AUTH_TOKEN_MISMATCH");
});

boundedTest(test, "a chat sent to the gateway reaches the fake model and its reply comes back", CHAT_TEST_MS, async () => {
  const { gateway, model } = peer();
  const marker = `MARK-bare-${randomUUID().slice(0, 8)}`;
  const client = await connectBare(gateway.url, gateway.token);
  try {
    const run = await bareChat(client, "main", `Please echo ${marker}`, undefined, scaled(50_000));
    assert.is(run.state, "final");
    assert.match(run.text, marker);
    const seen = await model.waitForRequest((r) => r.lastUserText.includes(marker), 1_000, marker);
    assert.is(seen.body.stream, true);
  } finally {
    await client.close();
  }
});

boundedTest(test, "Muster's gateway client connects: /api/health gateway.state is connected, with the URL and no token", 30_000, async () => {
  const { gateway } = peer();
  await withMuster(async (h) => {
    const health = await gatewayHealth(h);
    assert.is(health.state, "connected");
    assert.is(health.url, gateway.url);
    assert.ok(!Number.isNaN(Date.parse(health.since)), `since is ISO 8601: ${health.since}`);
    const raw = JSON.stringify((await h.json("/api/health")).body);
    assert.not.match(raw, gateway.token);
  });
});

test.run();
