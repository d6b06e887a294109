// How MCP tools reach Muster: plain HTTP calls to the running server's API, from the stdio
// process and from the /mcp endpoint alike. The route validates the input with its zod
// schema, applies its rules and answers; the tool passes the answer on unchanged.
export interface ApiRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export type ApiCall = (request: ApiRequest) => Promise<ApiAnswer>;

export interface HttpApiOptions {
  baseUrl: string;
  /**
   * Headers sent with every call: `Authorization` (MUSTER_API_TOKEN) and `X-Agent-Id`
   * only. Never the session token: no MCP call acts with the human's credential.
   */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export function httpApi({ baseUrl, headers = {}, timeoutMs = 30_000 }: HttpApiOptions): ApiCall {
  return async ({ method, path, query, body }) => {
    const url = new URL(path, baseUrl);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
    const res = await fetch(url, {
      method,
      headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a proxy's page): passed on as text.
    }
    return { status: res.status, body: parsed };
  };
}
