// core/entry.js is the entry point (plain JavaScript, see there); it exports nothing.
export {};
