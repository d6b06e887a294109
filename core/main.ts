// The entry point as earlier releases, scripts and tests name it: `node core/main.ts`.
// `npm start` and the `muster` command run core/entry.js directly, which skips Node's type
// stripper for the entry (core/entry.js says why).
// Not named main.js: under tsx (some benches and tools start `--import tsx core/main.ts`) a
// `./main.js` specifier resolves to this very file, and the import would wait on itself.
await import("./entry.js");
