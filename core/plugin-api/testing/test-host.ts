// Boots a real Muster host for a test: 127.0.0.1, port 0, a fresh temporary MUSTER_HOME and
// workspace, no gateway unless the test brings one (./fake-gateway), and a client typed from
// the server's own OpenAPI (@muster/sdk). The built-in suites and third-party plugin authors
// use this one implementation.
//
// The host is not imported here. @muster/plugin is the kit a plugin compiles against; the host
// (`muster`) depends on it, not the other way round, and a published plugin never bundles a
// host. So the host comes from the caller (`createHost`, as the repository's suites pass their
// checkout's) or, when none is given, from the `muster` package installed beside the plugin,
// loaded at run time: the same host its users run, found the way Node finds any package.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMusterClient, type MusterClient } from "@muster/sdk/client";
import type { PluginDefinition } from "../define-plugin.ts";
import type { FromRoute, JsonBody } from "./api-body.ts";

/** What the kit needs of a host; `createHost` from `muster` returns one. */
export interface TestableHost {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Base URL once started. */
  readonly url: string;
  readonly sessionToken: string;
}

/** The options every host factory takes (`muster`'s `HostOptions` has these and more). */
export interface BaseHostOptions {
  env?: NodeJS.ProcessEnv;
  config?: object;
  plugins?: PluginDefinition[];
  extraPlugins?: PluginDefinition[];
}

// `any` is the widest parameter a factory may declare: a factory taking `HostOptions` is not
// assignable to one taking `BaseHostOptions` (parameters are contravariant).
export type HostFactory<H extends TestableHost = TestableHost> = (options: any) => H;

/** The factory's own options type; `BaseHostOptions` for a factory typed `(options: any)`. */
type FactoryOptions<F extends HostFactory> = NonNullable<Parameters<F>[0]> extends infer O ? (0 extends 1 & O ? BaseHostOptions : O & BaseHostOptions) : never;
type FactoryConfig<F extends HostFactory> = NonNullable<FactoryOptions<F>["config"]>;
type HostOf<F extends HostFactory> = ReturnType<F>;

/** `createHost`'s own options (plugins, extraPlugins, env, logger…), plus where the home lives. */
export type TestHostOptions<F extends HostFactory = HostFactory> = Omit<FactoryOptions<F>, "config"> & {
  /** The host to boot (default: `createHost` of the installed `muster` package). */
  createHost?: F;
  /** Configuration overrides; `port`, `host`, `home`, `workspaceDir` and `gatewayUrl` get test values unless given. */
  config?: FactoryConfig<F>;
  /** Use this MUSTER_HOME instead of a fresh temporary one (then it is never removed). */
  home?: string;
  /** Use this workspace instead of `<home>/workspace`. */
  workspace?: string;
};

export interface RequestInitJson extends Omit<RequestInit, "body"> {
  /** An object is sent as JSON (content type set); a string or bytes as is. */
  body?: unknown;
  /** Adds the session token header (the human's credential). */
  session?: boolean;
}

export interface JsonResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestHost<H extends TestableHost = TestableHost, C extends object = object> {
  host: H;
  url: string;
  /** The session token: the human's credential (`x-session-token`). */
  token: string;
  home: string;
  workspace: string;
  /**
   * A client typed from the server's OpenAPI (a method per route, `MusterApiError` with the
   * server's `code` on failure), bound to this host with the session token and no retries, so
   * a test sees the first answer.
   */
  client: MusterClient;
  /** The same client calling as an agent (`X-Agent-Id`, no session token). */
  clientAs(agentId: string): MusterClient;
  /** fetch against the host; JSON bodies are serialised and the content type set. */
  request(path: string, init?: RequestInitJson): Promise<Response>;
  /**
   * request() and parse the JSON answer (a status a typed client would throw on is returned here).
   * The body is typed from the literal path and method (the route's OpenAPI answer, see
   * `RouteBody`), `unknown` when the OpenAPI has no such route, or `T` when the test names it.
   */
  json<T = FromRoute, const P extends string = string, M extends string = "GET">(path: P, init?: RequestInitJson & { method?: M | (string & {}) }): Promise<JsonResponse<JsonBody<T, M, P>>>;
  /** Stops the host and removes the temporary home (a `home` the caller passed is kept), unless `keepHome`. */
  stop(options?: { keepHome?: boolean }): Promise<void>;
  /** Stops the host and starts a new one on the same home (data survives), with these config overrides. */
  restart(overrides?: C): Promise<TestHost<H, C>>;
}

/** `createHost` of the installed `muster` package (see the file's head for why it is not imported). */
async function installedHostFactory(): Promise<HostFactory> {
  const name = "muster";
  const muster = (await import(name).catch((cause: Error) => {
    throw new Error(`startTestHost: no createHost given and the "muster" package cannot be loaded (${cause.message}); install muster beside the plugin or pass createHost`, { cause });
  })) as { createHost?: HostFactory };
  if (typeof muster.createHost !== "function") throw new Error('startTestHost: the "muster" package has no createHost export');
  return muster.createHost;
}

/** The built-in plugins of the installed `muster`, when a test named none (a host without them serves only its own routes). */
async function installedBuiltIns(): Promise<PluginDefinition[]> {
  const name = "muster/plugins";
  const module = (await import(name).catch(() => ({}))) as { builtInPlugins?: PluginDefinition[] };
  return module.builtInPlugins ?? [];
}

export function startTestHost<F extends HostFactory = HostFactory>(options: TestHostOptions<F> = {} as TestHostOptions<F>): Promise<TestHost<HostOf<F>, FactoryConfig<F>>> {
  return boot(options, options.home === undefined);
}

/** `ownsHome`: the home is the kit's temporary one (also after a restart), removed by stop(). */
async function boot<F extends HostFactory>(options: TestHostOptions<F>, ownsHome: boolean): Promise<TestHost<HostOf<F>, FactoryConfig<F>>> {
  const { createHost: given, home: givenHome, workspace: givenWorkspace, config, ...hostOptions } = options as TestHostOptions & Record<string, unknown>;
  const createHost = given ?? (await installedHostFactory());
  const plugins = (hostOptions.plugins as PluginDefinition[] | undefined) ?? (given ? undefined : await installedBuiltIns());
  const home = givenHome ?? mkdtempSync(join(tmpdir(), "muster-home-"));
  const workspace = givenWorkspace ?? join(home, "workspace");
  const host = createHost({
    ...hostOptions,
    ...(plugins ? { plugins } : {}),
    env: hostOptions.env ?? {},
    // No gateway unless the test brings one (./fake-gateway): nothing dials port 18789.
    config: { port: 0, host: "127.0.0.1", logLevel: process.env.LOG_LEVEL ?? "silent", home, workspaceDir: workspace, gatewayUrl: "off", ...config },
  }) as HostOf<F>;
  try {
    await host.start();
  } catch (error) {
    if (givenHome === undefined) rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const url = host.url;
  const token = host.sessionToken;
  const request = (path: string, init: RequestInitJson = {}) => {
    const headers = new Headers(init.headers);
    let body: RequestInit["body"];
    if (init.body !== undefined) {
      if (typeof init.body === "string" || init.body instanceof Uint8Array) body = init.body as RequestInit["body"];
      else {
        body = JSON.stringify(init.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
    }
    if (init.session) headers.set("x-session-token", token);
    // One connection per request: a test that blocks the event loop it shares with the host
    // (a synchronous git or file helper) for longer than the server's 5 s keep-alive lets the
    // server close the idle socket while the client, not yet told, sends on it: ECONNRESET,
    // "fetch failed". A fresh connection costs nothing on 127.0.0.1.
    if (!headers.has("connection")) headers.set("connection", "close");
    return fetch(`${url}${path}`, { ...init, headers, body });
  };
  return {
    host,
    url,
    token,
    home,
    workspace,
    client: createMusterClient({ url, sessionToken: token, retries: 0 }),
    clientAs: (agentId) => createMusterClient({ url, agentId, retries: 0 }),
    request,
    // The parsed body is the server's JSON; its type is the route's contract, which the OpenAPI
    // conformance tests hold the server to, so the signature states it rather than this body.
    json: (async (path: string, init?: RequestInitJson): Promise<JsonResponse<unknown>> => {
      const res = await request(path, init);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* leave as text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    }) as TestHost["json"],
    async stop(stopOptions = {}) {
      await host.stop();
      if (ownsHome && !stopOptions.keepHome) rmSync(home, { recursive: true, force: true });
    },
    async restart(overrides) {
      await host.stop();
      return boot({ ...options, home, workspace, config: { ...config, ...overrides } } as TestHostOptions<F>, ownsHome);
    },
  };
}

/**
 * Starts a host, runs `fn` with it, then always stops it and removes its home (also when `fn`
 * throws), so a failing test leaks neither a server nor a temporary directory. A host started
 * by `h.restart()` is the one stopped; a `home` the caller passed is left in place.
 */
export async function withTestHost<T, F extends HostFactory = HostFactory>(
  options: TestHostOptions<F>,
  fn: (h: TestHost<HostOf<F>, FactoryConfig<F>>) => Promise<T> | T,
): Promise<T> {
  type H = TestHost<HostOf<F>, FactoryConfig<F>>;
  let current: H;
  const track = (t: H): H => (current = { ...t, restart: async (overrides) => track(await t.restart(overrides)) });
  const h = track(await startTestHost(options));
  try {
    return await fn(h);
  } finally {
    await current!.stop();
  }
}
