// `muster login`: prints a one-time browser login link for the running server. The CLI is
// the token holder (it reads the 0600 session-token file, as any tool of the owner may);
// the server mints the link, so the token itself never travels to a browser.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MusterConfig } from "./config.ts";
import { serverUrl } from "./cli/server-client.ts";

export interface LoginCommandDeps {
  config: MusterConfig;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  fetch?: typeof fetch;
}

export async function runLoginCommand({ config, stdout, stderr, fetch: doFetch = fetch }: LoginCommandDeps): Promise<number> {
  const tokenFile = join(config.home, "session-token");
  let token: string;
  try {
    token = readFileSync(tokenFile, "utf8").trim();
  } catch {
    stderr.write(`muster login: cannot read ${tokenFile}; start the server first (muster start), with the same MUSTER_HOME\n`);
    return 1;
  }
  const base = serverUrl(config);
  let res: Response;
  try {
    res = await doFetch(`${base}/api/auth/login-link`, {
      method: "POST",
      headers: { "x-session-token": token, ...(config.apiToken ? { authorization: `Bearer ${config.apiToken}` } : {}) },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    stderr.write(`muster login: no server answers at ${base}; start it with muster start (or set PORT/HOST as the server has them)\n`);
    return 1;
  }
  const body = (await res.json().catch(() => ({}))) as { url?: string; expiresAt?: string; error?: { code?: string; message?: string } };
  if (!res.ok || !body.url) {
    const hint = res.status === 401 ? ` (the token in ${tokenFile} is not this server's: is it another MUSTER_HOME?)` : "";
    stderr.write(`muster login: ${body.error?.code ?? res.status}: ${body.error?.message ?? "the server refused"}${hint}\n`);
    return 1;
  }
  stdout.write(`${body.url}\n`);
  stderr.write(`Open this link in your browser to log in (valid once, until ${body.expiresAt}).\n`);
  return 0;
}
