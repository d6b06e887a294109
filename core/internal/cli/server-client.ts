// How a command reaches the running server of its MUSTER_HOME: the url recorded in the
// instance lock (whatever PORT this shell has), and the human's session token from the
// 0600 file next to it. Answers come back as the server's envelope; an error is thrown as
// a MusterError carrying the server's own code, so commands report it by code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MusterConfig } from "../config.ts";
import { reachableUrl, runningInstance } from "../instance-lock.ts";
import { cliErrors } from "./cli-errors.ts";
import type { ServerClient, ServerRequest } from "../../plugin-api/command-line.ts";

export type { ServerClient, ServerRequest };

/**
 * The url of the running server of this MUSTER_HOME (from its lock), else the configured
 * address; a wildcard bind is reached through loopback.
 */
export function serverUrl(config: Pick<MusterConfig, "home" | "host" | "port">): string {
  const configured = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
  return reachableUrl(runningInstance(config.home)?.url || configured);
}

/** The server's error envelope, kept as it came (its code, status and message), so a command reports exactly what the API said. */
export class ServerRefusal extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  constructor(code: string, status: number, message: string, details: unknown) {
    super(message);
    this.name = "ServerRefusal";
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export function connectToServer(config: Pick<MusterConfig, "home" | "host" | "port" | "apiToken">, doFetch: typeof fetch = fetch): ServerClient {
  const url = serverUrl(config);
  const tokenPath = join(config.home, "session-token");
  const sessionToken = () => {
    try {
      return readFileSync(tokenPath, "utf8").trim();
    } catch (error) {
      throw cliErrors.CLI_SESSION_TOKEN_UNREADABLE({ path: tokenPath, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  };
  return {
    url,
    async request<T>(method: string, path: string, init: ServerRequest = {}): Promise<T> {
      const target = new URL(path, url);
      for (const [name, value] of Object.entries(init.query ?? {})) if (value !== undefined) target.searchParams.set(name, String(value));
      const headers: Record<string, string> = { ...init.headers };
      if (config.apiToken) headers.authorization = `Bearer ${config.apiToken}`;
      if (init.session) headers["x-session-token"] = sessionToken();
      if (init.body !== undefined) headers["content-type"] = "application/json";
      let res: Response;
      try {
        res = await doFetch(target, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: AbortSignal.timeout(30_000) });
      } catch (error) {
        if (!runningInstance(config.home)) throw cliErrors.CLI_SERVER_NOT_RUNNING({ home: config.home });
        throw cliErrors.CLI_SERVER_UNREACHABLE({ home: config.home, url }, { cause: error });
      }
      const body = (await res.json().catch(() => undefined)) as { ok?: boolean; error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
      if (res.ok && body !== undefined) return body as T;
      const error = body?.error;
      if (typeof error?.code !== "string" || typeof error.message !== "string") {
        throw cliErrors.CLI_SERVER_ANSWER_INVALID({ method, path, status: res.status });
      }
      throw new ServerRefusal(error.code, res.status, error.message, error.details);
    },
  };
}
