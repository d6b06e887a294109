// Types of bundle-manifest.js for the TypeScript side (core/start/build-bundle.ts, tests).
export declare const BUNDLE_DIR: string;
export declare const MANIFEST_FILE: string;
export declare const BUNDLE_LAYOUT: number;

export interface BundleManifest {
  /** Node's version at build time: another runtime rebuilds (its built-in modules may differ). */
  node: string;
  /** {@link BUNDLE_LAYOUT} at build time: what else the directory holds (its package.json). */
  layout: number;
  /** The checkout it was built from (absolute, no trailing slash): another checkout rebuilds. */
  root: string;
  /** The bundle's entry files, relative to the bundle directory. */
  entries: { cli: string; pluginApi: string };
  /** Every input file (absolute path) with its size and mtimeMs when it was read. */
  inputs: [path: string, size: number, mtimeMs: number][];
}

export declare function fingerprint(path: string): [number, number] | null;
export declare function freshBundle(dir: string, root?: string): { dir: string; manifest: BundleManifest } | null;
