#!/usr/bin/env node
// `muster` command: runs core/main.js on the Node 24 runtime the project pins
// (node_modules/.bin/node), whatever Node started this shim.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pinned = join(root, "node_modules", ".bin", "node");
const node = existsSync(pinned) ? pinned : process.execPath;
const child = spawn(node, [join(root, "core", "main.js"), ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
