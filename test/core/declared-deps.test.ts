// Issue 23: routes, hooks, gated actions and contributions declare their deps like services;
// the host resolves every declaration at boot (a bad graph stops the start, not the first
// request), gated actions are declared one way, and a plugin adds to another plugin's (or
// the host's) surface only through a declared extension point.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  contribute,
  contributeWith,
  defineGatedAction,
  defineHook,
  definePlugin,
  defineRoutes,
  defineService,
  extensionPoint,
  hostPoints,
  hostTokens,
  token,
  z,
  type PluginDefinition,
} from "@muster/plugin";
import { withTestHost } from "../helpers/start-test-host.ts";
import { startOutcome } from "../helpers/start-error.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";

const t = suite("declared dependencies and extension points");
const base = { version: "1.0.0", host: "^1.0.0" } as const;

/** Starts a host with these plugins and returns the start error's code (or "started"). */
const startCode = async (plugins: PluginDefinition[]) => (await startOutcome(plugins)).code;

const GREETER = token<{ greet(name: string): string }>("greeter.service");
const greeter = definePlugin({
  id: "greeter",
  ...base,
  register: (ctx) => ctx.provide(defineService({ token: GREETER, deps: {}, create: () => ({ greet: (name: string) => `hello ${name}` }) })),
});

t("a route's undeclared or missing dependency stops the start, before any request", async () => {
  const routesUsing = (id: string, dependsOn: string[], tok = GREETER) =>
    definePlugin({ id, ...base, dependsOn, paths: [`/api/${id}`], routes: defineRoutes({ deps: { greeter: tok }, mount: () => {} }) });
  assert.is(await startCode([greeter, routesUsing("sneaky", [])]), "TOKEN_NOT_DECLARED");
  assert.is(await startCode([greeter, routesUsing("lost", ["greeter"], token("greeter.absent"))]), "SERVICE_NOT_PROVIDED");
  assert.is(await startCode([greeter, routesUsing("fine", ["greeter"])]), "started");
});

t("a service's missing dependency stops the start even if nothing ever resolves it", async () => {
  const broken = definePlugin({
    id: "broken",
    ...base,
    register: (ctx) => ctx.provide(defineService({ token: token("broken.service"), deps: { nothing: token("broken.nothing") }, create: () => ({}) })),
  });
  assert.is(await startCode([broken]), "SERVICE_NOT_PROVIDED");
});

t("declared routes and hooks receive their deps; an optional one is undefined when its plugin is absent", async () => {
  const seen: string[] = [];
  const user = definePlugin({
    id: "user",
    ...base,
    dependsOn: ["greeter"],
    optionalDependsOn: ["vault"],
    paths: ["/api/user"],
    routes: defineRoutes({
      deps: { greeter: GREETER },
      mount: (router, { greeter }) =>
        router.get("/api/user/hello", { summary: "Greets", query: z.strictObject({ name: z.string() }), tags: ["user"] }, ({ query }) => ({ text: greeter.greet(query.name) })),
    }),
    onStart: defineHook({ deps: { events: hostTokens.events }, optionalDeps: { vault: token("vault.secrets") }, run: ({ events, vault }) => void seen.push(`start:${typeof events.publish}:${vault === undefined}`) }),
    onStop: defineHook({ deps: { greeter: GREETER }, run: ({ greeter }) => void seen.push(greeter.greet("stop")) }),
  });
  await withTestHost({ plugins: [greeter, user] }, async (h) => {
    const res = await h.json("/api/user/hello?name=ada");
    assert.is(res.status, 200);
    assert.equal(res.body, { text: "hello ada" });
    assert.equal(seen, ["start:function:true"]);
  });
  assert.equal(seen, ["start:function:true", "hello stop"]);
});

t("a gated action is declared once with its deps, runs only after a human approves, and its kind carries the plugin id", async () => {
  const calls: string[] = [];
  const courier = definePlugin({
    id: "courier",
    ...base,
    dependsOn: ["greeter", "approvals"],
    paths: ["/api/courier"],
    gatedActions: [
      defineGatedAction({
        kind: "courier.deliver",
        deps: { greeter: GREETER },
        create: ({ greeter }) => ({ describe: (p: { to: string }) => `Deliver to ${p.to}`, execute: async (p: { to: string }) => void calls.push(greeter.greet(p.to)) }),
      }),
    ],
    routes: defineRoutes({
      deps: { gate: hostTokens.gate },
      mount: (router, { gate }) =>
        router.post("/api/courier", { summary: "Asks to deliver", body: z.strictObject({ to: z.string() }), tags: ["courier"] }, async ({ body }) => gate.request("courier.deliver", body, { requestedBy: "agent-1", title: "Deliver" })),
    }),
  });
  await withTestHost({ plugins: [...builtInPlugins.filter((p) => ["activities", "notifications", "approvals"].includes(p.id)), greeter, courier] }, async (h) => {
    // The suite's own plugin routes (outside the OpenAPI): the courier answers the approval it raised, the board its shapes.
    const requested = await h.json<{ approvalId: string }>("/api/courier", { method: "POST", body: { to: "bob" } });
    assert.is(requested.status, 200, JSON.stringify(requested.body));
    assert.equal(calls, [], "nothing ran before the decision");
    const decided = await h.json(`/api/approvals/${requested.body.approvalId}`, { method: "PATCH", body: { status: "approved" }, session: true });
    assert.is(decided.status, 200, JSON.stringify(decided.body));
    assert.equal(calls, ["hello bob"]);
  });
  const stray = definePlugin({ id: "stray", ...base, gatedActions: [defineGatedAction({ kind: "other.thing", deps: {}, create: () => ({ describe: () => "x", execute: async () => null }) })] });
  assert.is(await startCode([stray]), "PLUGIN_INVALID");
});

t("a kind published without the plugin's prefix keeps it only with a stated reason", async () => {
  const action = (kind: string, exemptFromPrefix?: string) => defineGatedAction({ kind, exemptFromPrefix, deps: {}, create: () => ({ describe: () => "x", execute: async () => null }) });
  const bridge = (exempt?: string) => definePlugin({ id: "bridge", ...base, gatedActions: [action("external.run", exempt)] });
  assert.is(await startCode([bridge("the external system's own kind")]), "started");
  assert.is(await startCode([bridge()]), "PLUGIN_INVALID");
  assert.is(await startCode([bridge("  ")]), "PLUGIN_INVALID", "an empty reason is no reason");
});

t("extension points: contributions arrive at the owner in order; bad contributions stop the start", async () => {
  const SHAPES = extensionPoint<{ shape: string }>("board.shapes");
  const board = definePlugin({
    id: "board",
    ...base,
    paths: ["/api/board"],
    extensionPoints: [SHAPES],
    routes: defineRoutes({
      deps: { shapes: SHAPES.contributions },
      mount: (router, { shapes }) => router.get("/api/board", { summary: "Shapes", query: z.strictObject({}), tags: ["board"] }, () => ({ shapes: shapes.map((c) => `${c.plugin}:${c.value.shape}`) })),
    }),
  });
  const circle = definePlugin({ id: "circle", ...base, dependsOn: ["board"], contributions: [contribute(SHAPES, { shape: "circle" })] });
  const square = definePlugin({
    id: "square",
    ...base,
    dependsOn: ["greeter"],
    optionalDependsOn: ["board"],
    contributions: [contributeWith(SHAPES, { deps: { greeter: GREETER }, create: ({ greeter }) => ({ shape: greeter.greet("square") }) })],
  });
  await withTestHost({ plugins: [board, greeter, circle, square] }, async (h) => {
    const res = await h.json<{ shapes: string[] }>("/api/board");
    assert.equal(res.body.shapes, ["circle:circle", "square:hello square"]);
  });
  assert.is(await startCode([greeter, square]), "started", "an optional owner that is absent drops the contribution");
  const rogue = definePlugin({ id: "rogue", ...base, contributions: [contribute(SHAPES, { shape: "x" })] });
  assert.is(await startCode([board, rogue]), "PLUGIN_CONTRIBUTION_UNDECLARED");
  const unknown = definePlugin({ id: "unknown", ...base, dependsOn: ["board"], contributions: [contribute(extensionPoint<string>("board.nothing"), "x")] });
  assert.is(await startCode([board, unknown]), "PLUGIN_CONTRIBUTION_UNKNOWN_POINT");
});

t("a start gathers the contributions once: the owner source and the points read the same gathering", async () => {
  const SHAPES = extensionPoint<{ shape: string }>("board.shapes");
  const board = definePlugin({ id: "board", ...base, extensionPoints: [SHAPES] });
  let reads = 0;
  const counted = definePlugin({ id: "counted", ...base, dependsOn: ["board"] });
  const list = [contribute(SHAPES, { shape: "circle" }), contribute(hostPoints.ownerSources, { owner: () => null })];
  // The host reads a plugin's list whenever it gathers contributions: count those reads.
  Object.defineProperty(counted, "contributions", { get: () => (reads++, list) });
  await withTestHost({ plugins: [board, counted] }, async () => {
    assert.is(reads, 1, "prepareWorkspace (owner sources) and registerPlugins (points) share one gathering");
  });
});

t.run();
