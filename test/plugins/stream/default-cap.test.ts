// Issue 15: the fan-out target (one event to 1,000 SSE clients, bench:workspace) holds at the
// default configuration, so the default client cap must admit 1,000 clients plus the UI's own.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { streamConfigSchema } from "../../../plugins/stream/config.ts";

test("the default client cap admits at least 1,000 SSE clients", () => {
  const defaults = streamConfigSchema.parse({});
  assert.ok(defaults.maxClients >= 1_000, `maxClients default ${defaults.maxClients}`);
  assert.is(streamConfigSchema.parse({ maxClients: 8 }).maxClients, 8, "still configurable");
});

test.run();
