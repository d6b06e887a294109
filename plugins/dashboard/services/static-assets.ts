// The dashboard's files: plain ES modules, CSS and one HTML page kept in static/, served as
// they are (no build step). Read once at start: the set is fixed, so a request can only name
// a file that was listed here, never a path into the rest of the disk.
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";

export interface StaticAsset {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** File name (`app.js`) → contents and content type, for every servable file of `dir`. */
export function loadStaticAssets(dir: string): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (entry.isFile() && type) assets.set(entry.name, { body: readFileSync(join(dir, entry.name)), type });
  }
  return assets;
}
