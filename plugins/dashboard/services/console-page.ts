// The console's one HTML page, served at `/` and at every `/console/...` address (the page
// reads its place from the URL). Its import map lets the console and plugins' pages import
// `preact`, `htm`, `@muster/sdk/client` and `@muster/console` by name; the map is the page's
// only inline script, allowed by its hash in this page's Content-Security-Policy (nothing
// else inline runs: the rest of the policy is the host's, unchanged).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export const IMPORT_MAP = {
  imports: {
    preact: "/dashboard/vendor/preact.js",
    "preact/hooks": "/dashboard/vendor/preact-hooks.js",
    htm: "/dashboard/vendor/htm.js",
    "@muster/sdk/client": "/dashboard/sdk/core.ts",
    "@muster/console": "/dashboard/kit.ts",
  },
};

export interface ConsolePage {
  body: Buffer;
  /** `'sha256-…'` of the import map script, for script-src. */
  scriptHash: string;
  /** The page with `<link rel="modulepreload">` for these module URLs, after the import map (which must come before any module load). */
  withPreloads(urls: readonly string[]): Buffer;
}

const MARK = "<!--import-map-->";
const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Fills the page template's `<!--import-map-->` with the map and hashes it. */
export function loadConsolePage(templatePath: string): ConsolePage {
  const script = JSON.stringify(IMPORT_MAP);
  const template = readFileSync(templatePath, "utf8");
  const fill = (links: string) => template.replace(MARK, `<script type="importmap">${script}</script>${links}`);
  const scriptHash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
  return {
    body: Buffer.from(fill("")),
    scriptHash,
    withPreloads: (urls) => Buffer.from(fill(urls.map((url) => `\n  <link rel="modulepreload" href="${attribute(url)}">`).join(""))),
  };
}

/** The host's policy with the import map's hash added to script-src. */
export function withScriptHash(policy: string, hash: string): string {
  return policy.replace(/(^|;\s*)script-src ([^;]*)/, (_match, lead: string, sources: string) => `${lead}script-src ${sources} ${hash}`);
}
