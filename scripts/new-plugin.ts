// `npm run new-plugin <id>`: scaffolds plugins/<id>/ with a route, its schemas, an error
// catalogue and a test, and registers it in plugins/built-in-loaders.ts, so every plugin starts
// from the same shape. `--root <dir>` writes into another checkout (used by its test).
//
// `npm run new-plugin -- --standalone <dir> <id>`: scaffolds a third-party plugin package
// in <dir> instead (package.json with `"muster": { "plugin": true }`, `@muster/plugin` as
// peer dependency, a tsc build to JavaScript + .d.ts run by `prepack`, a test), ready for
// `npm pack` and `muster plugins add <tarball>`. Both modes write the same plugin files.
// @muster/plugin is not on the npm registry: the kit is packed from this checkout into the
// scaffold's vendor/ and the dev dependency points at that tarball (`file:`), so the printed
// `npm install && npm test` works with only this repository and the registry.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { tablePrefix } from "../core/internal/plugin-tables.ts";
import { packPluginKit } from "./lib/pack-plugin-kit.ts";

const USAGE = "Usage: npm run new-plugin <id>   or   npm run new-plugin -- --standalone <dir> <id>   (id in kebab-case, e.g. release-notes)";
const args = process.argv.slice(2);
const take = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const root = take("--root") ?? new URL("..", import.meta.url).pathname;
const standaloneFlag = args.includes("--standalone");
const standaloneDir = standaloneFlag ? take("--standalone") : undefined;
const id = args[0] ?? "";

if (!id || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id) || (standaloneFlag && !standaloneDir)) {
  console.error(USAGE);
  process.exit(2);
}

const camel = id.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const upper = id.toUpperCase().replace(/-/g, "_");
const Cap = camel.charAt(0).toUpperCase() + camel.slice(1);

/** The plugin itself, the same in both modes (relative to the plugin's source folder). */
const pluginFiles: Record<string, string> = {
  "index.ts": `import { definePlugin } from "@muster/plugin";
import { ${camel}Routes } from "./http/routes.ts";

/** ${id}: describe what this plugin adds to Muster. */
export const ${camel}Plugin = definePlugin({
  id: "${id}",
  version: "0.1.0",
  host: "^1.0.0",
  paths: ["/api/${id}"],
  routes: ${camel}Routes,
});

export default ${camel}Plugin;
`,
  "errors.ts": `import { defineErrors } from "@muster/plugin";

// Every code carries the plugin's prefix, its id upper-snake-cased (${upper}_); defineErrors refuses others.
export const ${camel}Errors = defineErrors("${id}", {
  ${upper}_NOT_FOUND: { status: 404, message: "No ${id} item with id {id}" },
});
`,
  "http/schemas.ts": `import { z } from "@muster/plugin";

export const echoBody = z.strictObject({ message: z.string().min(1).max(1000) });
export const echoResponse = z.object({ ok: z.literal(true), echo: z.string() });
`,
  "http/routes.ts": `import { defineRoutes, hostTokens } from "@muster/plugin";
import { echoBody, echoResponse } from "./schemas.ts";

/**
 * The routes and the services they use, declared in \`deps\` (your own tokens, \`hostTokens\`,
 * those of plugins in \`dependsOn\`): the host checks them when it starts and passes them in.
 */
export const ${camel}Routes = defineRoutes({
  deps: { logger: hostTokens.logger },
  mount(router, { logger }) {
    router.post("/api/${id}", { summary: "Echo a message", body: echoBody, response: echoResponse }, ({ body }) => {
      logger.debug({ length: body.message.length }, "echo");
      return { ok: true, echo: body.message };
    });
  },
});
`,
};

function write(base: string, files: Record<string, string>, shown: (path: string) => string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), content);
    console.log(`created ${shown(path)}`);
  }
}

if (standaloneDir) scaffoldStandalone(resolve(standaloneDir));
else scaffoldInRepo();

function scaffoldInRepo(): void {
  const dir = join(root, "plugins", id);
  if (existsSync(dir)) {
    console.error(`plugins/${id} already exists`);
    process.exit(1);
  }
  write(dir, pluginFiles, (path) => `plugins/${id}/${path}`);
  write(root, {
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
  }, (path) => path);

  // The one list of the built-ins: a loader per plugin (plugins/built-in.ts loads them all).
  const builtIn = join(root, "plugins", "built-in-loaders.ts");
  const source = existsSync(builtIn) ? readFileSync(builtIn, "utf8") : "";
  const loader = `  () => import("./${id}/index.ts").then((m) => m.${camel}Plugin),\n`;
  const registered = source.replace(/(export const builtInPluginLoaders[^\n]*\n(?:  [^\n]*\n)*)(\];)/, `$1${loader}$2`);
  if (registered === source) {
    console.log(`Add ${loader.trim()} to builtInPluginLoaders in plugins/built-in-loaders.ts yourself.`);
  } else {
    writeFileSync(builtIn, registered);
    console.log("registered in plugins/built-in-loaders.ts");
  }
  console.log(`Next: npm test -- test/plugins/${id}`);
}

function scaffoldStandalone(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    console.error(`${dir} exists and is not empty`);
    process.exit(1);
  }
  const name = `muster-plugin-${id}`;
  const kit = `vendor/${basename(packPluginKit(join(dir, "vendor")))}`;
  console.log(`created ${join(basename(dir), kit)} (the plugin kit, packed from this checkout)`);
  const pkg = {
    name,
    version: "0.1.0",
    description: `Muster plugin ${id}`,
    type: "module",
    exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
    files: ["dist"],
    scripts: {
      build: "rm -rf dist && tsc -p tsconfig.json",
      prepack: "npm run build",
      test: "npm run build && node --test",
    },
    // Muster finds plugins by this field; `host` is the plugin-API range it was built for.
    muster: { plugin: true, host: "^1.0.0" },
    // The host provides @muster/plugin at run time (its own instance); never bundle it.
    peerDependencies: { "@muster/plugin": "^1.0.0" },
    devDependencies: { "@muster/plugin": `file:${kit}`, "@types/node": "^24.0.0", typescript: "^5.9.3" },
  };
  write(dir, {
    "package.json": `${JSON.stringify(pkg, null, 2)}\n`,
    "tsconfig.json": `{
  // JavaScript + .d.ts in dist/: Node does not strip types inside node_modules, so a plugin
  // ships JavaScript. Sources import each other with .ts extensions, rewritten to .js.
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2022"],
    "types": ["node"],
    "strict": true,
    "verbatimModuleSyntax": true,
    "isolatedModules": true,
    "rewriteRelativeImportExtensions": true,
    "declaration": true,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`,
    // Only npm pack's output: vendor/ holds the kit the install needs and is committed.
    ".gitignore": "node_modules/\ndist/\n/*.tgz\n",
    ...Object.fromEntries(Object.entries(pluginFiles).map(([path, content]) => [`src/${path}`, content])),
    [`test/${id}.test.js`]: `// Runs the built plugin's route against a stand-in router and logger (no host needed): \`npm test\`.
// For the real thing: npm pack, then \`muster plugins add ./${name}-0.1.0.tgz\` and restart Muster.
import { test } from "node:test";
import assert from "node:assert/strict";
import plugin from "../dist/index.js";

test("the definition names its id, host range and paths", () => {
  assert.equal(plugin.id, "${id}");
  assert.equal(plugin.host, "^1.0.0");
  assert.deepEqual(plugin.paths, ["/api/${id}"]);
});

test("POST /api/${id} echoes the message; its body schema refuses an empty one", async () => {
  const routes = new Map();
  const router = new Proxy({}, { get: (_target, method) => (path, spec, handler) => routes.set(\`\${String(method).toUpperCase()} \${path}\`, { spec, handler }) });
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  plugin.routes.mount(router, { logger }, { id: plugin.id, logger });
  const echo = routes.get("POST /api/${id}");
  assert.deepEqual(await echo.handler({ body: { message: "hi" } }), { ok: true, echo: "hi" });
  assert.equal(echo.spec.body.safeParse({ message: "" }).success, false);
});
`,
    "README.md": `# ${name}

A plugin for Muster, the local workspace server for crews of AI agents: describe what it adds.

\`\`\`sh
npm install                      # the plugin kit @muster/plugin comes from ${kit} (not on the npm registry)
npm test                         # builds dist/ (JavaScript + .d.ts) and runs test/
npm pack                         # ${name}-0.1.0.tgz (prepack builds)
muster plugins add ./${name}-0.1.0.tgz   # installs into $MUSTER_HOME, enables it; restart Muster
\`\`\`

Rules the host enforces at start-up: routes only under \`paths\`; tables and indexes named
with the prefix \`${tablePrefix(id)}\` (entities' \`tableName\` and every table a
migration creates, alters or drops); error codes from \`defineErrors("${id}", {...})\`, each
carrying the prefix \`${upper}_\` (refused with \`PLUGIN_ERROR_CODE_PREFIX\` when the module loads).

To build against a newer Muster, pack its kit again from that checkout
(\`npm pack ./core/plugin-api --pack-destination <this directory>/vendor\`) and update the
\`file:\` dependency in package.json. The plugin API is documented in Muster's
\`docs/architecture.md\` and its README's "Writing a plugin".
`,
  }, (path) => join(basename(dir), path));
  console.log(`Next: cd ${dir} && npm install && npm test`);
}
