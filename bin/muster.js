#!/usr/bin/env node
// `muster` command: runs core/entry.js on the Node 24 runtime the project pins
// (node_modules/.bin/node), whatever Node started this shim.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pinned = join(root, "node_modules", ".bin", "node");
const node = existsSync(pinned) ? pinned : process.execPath;
// Without the pinned Node (no npm install yet) an old one would crash in better-sqlite3: say what to use.
if (node === process.execPath && Number(process.versions.node.split(".")[0]) < 24) {
  process.stderr.write(`Muster needs Node.js 24 or newer; this is Node ${process.version}. Run npm install in ${root} (it pins Node 24 in node_modules/.bin/node), or use Node 24.\n`);
  process.exit(1);
}
const child = spawn(node, [join(root, "core", "entry.js"), ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
