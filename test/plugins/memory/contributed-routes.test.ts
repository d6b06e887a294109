// Routes under /api/memory/ that other plugins contribute (MEMORY_ROUTES): the rag plugin's
// routes keep their URLs and OpenAPI entries (mounted between the memory routes and the
// documents, tagged with both plugins); without rag they are not served; a contribution
// outside /api/memory/ stops the start.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { contribute, definePlugin, z, type PluginRouter } from "@muster/plugin";
import { MEMORY_ROUTES } from "../../../plugins/memory/tokens.ts";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { startErrorCode } from "../../helpers/start-error.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("memory: contributed routes");

const contributing = (id: string, path: string) =>
  definePlugin({
    id,
    version: "1.0.0",
    host: "^1.0.0",
    dependsOn: ["memory"],
    contributions: [contribute(MEMORY_ROUTES, (router: PluginRouter) => void router.get(path, { summary: "A contributed route", query: z.strictObject({}), tags: [id] }, () => ({ from: id })))],
  });

t("rag's routes are served under /api/memory and documented in place, tagged memory and rag", () =>
  withTestHost(async (h) => {
    const config = await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config");
    assert.is(config.status, 200);
    assert.ok("providers" in config.body);
    const paths = Object.keys((await h.json("/api/openapi.json")).body.paths as Record<string, unknown>);
    const at = (path: string) => paths.indexOf(path);
    assert.ok(at("/api/memory/longterm") < at("/api/memory/rag") && at("/api/memory/rag") < at("/api/memory/config") && at("/api/memory/config") < at("/api/docs"), paths.join(" "));
    const spec = (await h.json("/api/openapi.json")).body.paths["/api/memory/rag"];
    assert.equal([...(spec?.get?.tags ?? [])].sort(), ["memory", "rag"]);
    assert.ok(spec?.post);
  }));

t("without the rag plugin its paths are not served; another plugin's contribution is", () =>
  withTestHost({ plugins: [...builtInPlugins.filter((p) => p.id === "memory"), contributing("notes", "/api/memory/notes")] }, async (h) => {
    assert.is((await h.json<ApiBody<"getMemoryRag">>("/api/memory/rag?q=x")).status, 404);
    const notes = await h.json("/api/memory/notes");
    assert.is(notes.status, 200);
    assert.equal(notes.body, { from: "notes" });
  }));

t("a contributed route outside /api/memory/ stops the start", async () => {
  const memory = builtInPlugins.filter((p) => p.id === "memory");
  assert.is(await startErrorCode({ plugins: [...memory, contributing("sneaky", "/api/docs/other")] }), "MEMORY_ROUTE_OUTSIDE_PREFIX");
  assert.is(await startErrorCode({ plugins: [...memory, contributing("sneaky", "/api/memoryx")] }), "MEMORY_ROUTE_OUTSIDE_PREFIX");
});

t.run();
