// The entry point as earlier releases, scripts and tests name it: `node core/main.ts`.
// `npm start` and the `muster` command run core/main.js directly, which skips Node's type
// stripper for the entry (see there).
await import("./main.js");
