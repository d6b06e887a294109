// `npm run new-plugin <id>`: scaffolds plugins/<id>/ with a route, its schemas, an error
// catalogue and a test, and registers it in plugins/built-in.ts, so every plugin starts
// from the same shape. `--root <dir>` writes into another checkout (used by its test).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
const rootFlag = args.indexOf("--root");
const root = rootFlag >= 0 ? args.splice(rootFlag, 2)[1]! : new URL("..", import.meta.url).pathname;
const id = args[0];

if (!id || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id)) {
  console.error("Usage: npm run new-plugin <id>   (id in kebab-case, e.g. release-notes)");
  process.exit(2);
}
const dir = join(root, "plugins", id);
if (existsSync(dir)) {
  console.error(`plugins/${id} already exists`);
  process.exit(1);
}

const camel = id.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const upper = id.toUpperCase().replace(/-/g, "_");
const files: Record<string, string> = {
  [`plugins/${id}/index.ts`]: `import { definePlugin } from "muster/plugin";
import { mount${cap(camel)}Routes } from "./http/routes.ts";

/** ${id}: describe what this plugin adds to Muster. */
export const ${camel}Plugin = definePlugin({
  id: "${id}",
  version: "0.1.0",
  host: "^1.0.0",
  paths: ["/api/${id}"],
  routes: mount${cap(camel)}Routes,
});

export default ${camel}Plugin;
`,
  [`plugins/${id}/errors.ts`]: `import { defineErrors } from "muster/plugin";

export const ${camel}Errors = defineErrors({
  ${upper}_NOT_FOUND: { status: 404, message: "No ${id} item with id {id}" },
});
`,
  [`plugins/${id}/http/schemas.ts`]: `import { z } from "muster/plugin";

export const echoBody = z.strictObject({ message: z.string().min(1).max(1000) });
export const echoResponse = z.object({ ok: z.literal(true), echo: z.string() });
`,
  [`plugins/${id}/http/routes.ts`]: `import type { PluginContext, PluginRouter } from "muster/plugin";
import { echoBody, echoResponse } from "./schemas.ts";

export function mount${cap(camel)}Routes(router: PluginRouter, ctx: PluginContext): void {
  router.post("/api/${id}", { summary: "Echo a message", body: echoBody, response: echoResponse }, ({ body }) => {
    ctx.logger.debug({ length: body.message.length }, "echo");
    return { ok: true, echo: body.message };
  });
}
`,
  [`test/plugins/${id}/${id}.test.ts`]: `import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";

const t = suite<{ h: TestHost }>("${id}");
t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("POST /api/${id} echoes the message", async ({ h }) => {
  const res = await h.json("/api/${id}", { method: "POST", body: { message: "hi" } });
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, echo: "hi" });
});

t("bad input is refused", async ({ h }) => {
  const res = await h.json("/api/${id}", { method: "POST", body: { message: "" } });
  assert.is(res.status, 400);
  assert.is(res.body.error.code, "VALIDATION_FAILED");
});

t.run();
`,
};

function cap(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`created ${path}`);
}

const builtIn = join(root, "plugins", "built-in.ts");
const source = readFileSync(builtIn, "utf8");
const withImport = source.replace(/(\nexport const builtInPlugins)/, `import { ${camel}Plugin } from "./${id}/index.ts";\n$1`);
const registered = withImport.replace(/\](;\s*)$/, `, ${camel}Plugin]$1`);
if (registered === source || !registered.includes(`${camel}Plugin]`)) {
  console.log(`Add ${camel}Plugin (from "./${id}/index.ts") to plugins/built-in.ts yourself.`);
} else {
  writeFileSync(builtIn, registered);
  console.log("registered in plugins/built-in.ts");
}
console.log(`Next: npm test -- test/plugins/${id}`);
