// Muster runs on Node 24 (package.json `engines`; the project pins it in node_modules/.bin/node).
// An older Node fails in confusing ways: better-sqlite3 13's native binding segfaults on Node
// 20, and Node 20 lacks the module hooks core/entry.js uses. Imported FIRST by the entry points
// (core/entry.js, core/internal/sqlite-driver.ts, the test host helper) so it runs before
// better-sqlite3 loads its binding.
// Plain JavaScript: it must run on the old Node it refuses, and cost the entry no type stripping.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split(".")[0]);

if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `Muster needs Node.js ${REQUIRED_MAJOR} or newer; this is Node ${process.version} (${process.execPath}).\n` +
      `Use Node ${REQUIRED_MAJOR}: run through npm (npm start, npm test, npm run muster -- <command>) or bin/muster.js, which use the Node the project pins (node_modules/.bin/node), or put Node ${REQUIRED_MAJOR} first on PATH.\n`,
  );
  process.exit(1);
}

export {};
