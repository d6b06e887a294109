// Service contracts (issue 9.3/9.4): host services are tokens, a plugin resolves only what it
// declared, events are typed, the host knows no feature, plugins contribute CLI commands.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pluginCommands } from "../../core/commands.ts";
import { configToken, defineHook, definePlugin, defineService, hostTokens, token, z, type EventBus, type Logger, type PluginCommand, type PluginContext, type PluginDefinition } from "@muster/plugin";
import { withTestHost } from "../helpers/start-test-host.ts";
import { sqliteFileTest } from "../helpers/database-file.ts";
import { startOutcome } from "../helpers/start-error.ts";
import { ACTIVITIES, type ActivityLog } from "../../plugins/activities/tokens.ts";
import { activitiesPlugin } from "../../plugins/activities/index.ts";

const t = suite("service contracts");
const root = new URL("../..", import.meta.url).pathname;

const THING = token<{ value: string }>("provider.thing");
const provider = definePlugin({
  id: "provider",
  version: "1.0.0",
  host: "^1.0.0",
  register: (ctx) => ctx.provide(defineService({ token: THING, deps: {}, create: () => ({ value: "provided" }) })),
});

/** A plugin whose onStart needs THING, declaring `provider` or not. */
const consumer = (extra: Partial<PluginDefinition>) =>
  definePlugin({ id: "consumer", version: "1.0.0", host: "^1.0.0", onStart: defineHook({ deps: { thing: THING }, run: ({ thing }) => void (seen = thing.value) }), ...extra });
let seen: string | undefined;

t("a declaration needing a token of a plugin not in dependsOn stops the start with TOKEN_NOT_DECLARED naming plugin, token and fix", async () => {
  seen = undefined;
  const outcome = await startOutcome([provider, consumer({})]);
  assert.is(outcome.code, "TOKEN_NOT_DECLARED");
  assert.match(outcome.message, /Plugin "consumer" resolved "provider\.thing" of plugin "provider"/);
  assert.match(outcome.message, /add "provider" to its dependsOn \(or optionalDependsOn\)/);
  assert.is(seen, undefined, "the hook never ran");
});

t("a service's deps are checked against its own plugin's declarations", async () => {
  const OTHER = token<string>("consumer.other");
  const outcome = await startOutcome([
    provider,
    consumer({
      register: (ctx) => ctx.provide(defineService({ token: OTHER, deps: { thing: THING }, create: ({ thing }) => thing.value })),
      onStart: defineHook({ deps: { other: OTHER }, run: () => undefined }),
    }),
  ]);
  assert.is(outcome.code, "TOKEN_NOT_DECLARED");
  assert.match(outcome.message, /"consumer" resolved "provider\.thing"/);
});

t("declared (dependsOn or optionalDependsOn), own and host tokens resolve", async () => {
  for (const declared of [{ dependsOn: ["provider"] }, { optionalDependsOn: ["provider"] }]) {
    seen = undefined;
    await withTestHost({ plugins: [provider, consumer(declared)] }, () => undefined);
    assert.is(seen, "provided", JSON.stringify(declared));
  }
});

sqliteFileTest(t, "its test plugin uses db.sql, the synchronous SQLite connection, which a host on PostgreSQL does not have (docs/team.md)")("a service receives host services through deps only: its plugin's logger and config, the bus, a database usable after migrate", async () => {
  interface Probe { logger: Logger; config: Readonly<{ greeting: string }>; events: EventBus; tables(): number }
  const PROBE = token<Probe>("probe.service");
  let started: Probe | undefined;
  const probe = definePlugin({
    id: "probe",
    version: "1.0.0",
    host: "^1.0.0",
    config: z.object({ greeting: z.string().default("hello") }),
    register(ctx) {
      ctx.provide(
        defineService({
          token: PROBE,
          deps: { logger: hostTokens.logger, config: configToken<{ greeting: string }>(), events: hostTokens.events, db: hostTokens.db },
          create: ({ logger, config, events, db }) => ({ logger, config, events, tables: () => (db.sql.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n }),
        }),
      );
    },
    // register is DI only (its context resolves nothing); the service is built for the hook that declares it.
    onStart: defineHook({ deps: { probe: PROBE }, run: ({ probe }) => void (started = probe) }),
  });
  await withTestHost({ plugins: [probe], config: { pluginConfig: { probe: { greeting: "hi" } } } }, async () => {
    assert.is(started!.config.greeting, "hi");
    assert.is(started!.logger.bindings().plugin, "probe");
    assert.ok(started!.tables() > 0, "the database is usable once the host started");
  });
});

t("a host without plugins serves its own routes", async () => {
  await withTestHost({ plugins: [] }, async (h) => {
    const health = await h.json("/api/health");
    assert.is(health.status, 200);
    const plugins = await h.json("/api/plugins");
    assert.is(plugins.status, 200);
    assert.equal(plugins.body.plugins, []);
    assert.is((await h.json("/api/activities")).status, 404);
  });
});

t("events are typed: a subscriber gets the payload the publisher's map declares", async () => {
  let listener: { events: EventBus; activities: ActivityLog } | undefined;
  const onStart = defineHook({ deps: { activities: ACTIVITIES, events: hostTokens.events }, run: (deps) => void (listener = deps) });
  await withTestHost({ plugins: [activitiesPlugin], extraPlugins: [definePlugin({ id: "listener", version: "1.0.0", host: "^1.0.0", dependsOn: ["activities"], onStart })] }, async (h) => {
    const got = new Promise<string>((resolve) => listener!.events.subscribe("activities.activity.created", (event) => resolve(event.payload.agentId)));
    listener!.activities.log({ agentId: "typed-agent", action: "checked" });
    assert.is(await got, "typed-agent");
  });
});

/** Never called: the type checker (npm run typecheck) refuses each marked line. */
export function contextChecks(ctx: PluginContext): void {
  // @ts-expect-error services are reached through declared deps, never resolved from the context
  ctx.resolve(THING);
  // @ts-expect-error an optional dependency is an optionalDeps entry
  ctx.has(THING);
  // @ts-expect-error the database is hostTokens.db in deps
  void ctx.db;
  // @ts-expect-error gated actions are declared in the definition's gatedActions
  ctx.gate.define("consumer.send", { describe: () => "Send", execute: async () => undefined });
}

/** Never called: the type checker (npm run typecheck) refuses each marked line. */
export function eventTypingChecks(events: EventBus): void {
  events.publish("work.task.deleted", { id: "t1" });
  // @ts-expect-error a payload that is not the declared one
  events.publish("work.task.deleted", { id: 1 });
  // @ts-expect-error an event no plugin declares
  events.publish("work.task.exploded", { id: "t1" });
  // @ts-expect-error the workspace event needs its whole payload
  events.publish("workspace.file.changed", { path: "a.md" });
  events.subscribe("work.*", (event) => void event.payload);
}

t("plugin commands: taken from definitions, host words and duplicates skipped", () => {
  const run: PluginCommand["run"] = async () => 0;
  const a = definePlugin({ id: "a", version: "1.0.0", host: "^1.0.0", commands: [{ name: "greet", usage: "greet <name>", summary: "say hello", run }, { name: "start", usage: "start", summary: "clash", run }] });
  const b = definePlugin({ id: "b", version: "1.0.0", host: "^1.0.0", commands: [{ name: "greet", usage: "greet", summary: "second", run }] });
  assert.equal(pluginCommands([a, b]).map((c) => `${c.name}: ${c.summary}`), ["greet: say hello"]);
});

t("muster --help lists the commands plugins contribute (vault rotate)", () => {
  const help = spawnSync(process.execPath, [join(root, "core/main.ts"), "--help"], { encoding: "utf8", timeout: 30_000 });
  assert.is(help.status, 0, help.stderr);
  assert.match(help.stdout, /vault rotate +re-encrypt every vault secret/);
});

t.run();
