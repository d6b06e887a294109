// `muster doctor` with several gateways (DESIGN §16): each link's steps are reported under
// its name, one gateway down fails only its own steps, and the crew check reads the agents of
// every link.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { envFor, report, TOKEN, withGateway } from "./doctor-run.ts";

const t = suite("doctor: several gateways");
const STEPS = ["tcp", "websocket", "challenge", "token", "scopes", "protocol", "agents"];

t("each link is checked under its name; a stopped one fails alone; the crew check sees both links' agents", async () => {
  await withGateway({ agents: [{ id: "odin" }] }, async (east, home) => {
    const west = await FakeGateway.start({ token: "west-token-0123456789", agents: [{ id: "loki" }] });
    const westUrl = west.url;
    try {
      // The sources, not a start bundle built elsewhere (a shared node_modules may hold one of another checkout).
      const env = envFor(null, home, { MUSTER_START_BUNDLE: "off", GATEWAY_URL: `east=${east.url},west=${westUrl}`, GATEWAY_TOKEN: `${TOKEN},west-token-0123456789` });
      const green = await report(env);
      assert.is(green.code, 0, green.stdout + green.stderr);
      for (const link of ["east", "west"]) {
        assert.equal(STEPS.map((s) => green.status[`gateway.${link}.${s}`]), STEPS.map(() => "ok"), link);
      }
      assert.match(green.checks.find((c) => c.id === "gateway.east.agents")!.name, "(gateway east)");
      assert.match(green.checks.find((c) => c.id === "gateway.west.agents")!.detail, "loki");
      assert.is(green.status["gateway.tcp"], undefined, "no unnamed gateway checks with several gateways");
      assert.match(green.checks.find((c) => c.id === "config")!.detail, `east=${east.url},west=${westUrl}`);
      assert.is.not(green.status.crew, "skipped", "the crew check ran");

      await west.stop();
      const red = await report(env);
      assert.is(red.code, 1);
      assert.is(red.status["gateway.west.tcp"], "fail");
      assert.equal(STEPS.map((s) => red.status[`gateway.east.${s}`]), STEPS.map(() => "ok"));
      assert.is(red.status["gateway.west.agents"], "skipped");
    } finally {
      await west.stop();
    }
  });
});

t.run();
