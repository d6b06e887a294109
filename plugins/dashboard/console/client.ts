// The console's API client is the SDK's: every call typed from the server's own OpenAPI
// (`muster.getTasks({ query })`), errors are MusterApiError with the API's stable `code`.
// The session cookie rides along; writes add this tab's CSRF secret; a refusal that means
// "no usable session" signs the tab out so the page can ask to sign in again.
import { createMusterClient, isMusterApiError } from "@muster/sdk/client";
import { csrfSecret, forgetCsrf } from "./session.ts";

/** Codes that mean "this browser has no usable session". */
const SIGNED_OUT_CODES = new Set(["SESSION_TOKEN_REQUIRED", "SESSION_CSRF_REQUIRED", "SESSION_COOKIE_NOT_SAME_ORIGIN", "SESSION_TOKEN_INVALID"]);

async function sameOriginFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const secret = csrfSecret();
  if ((init.method ?? "GET") !== "GET" && secret) headers.set("x-muster-csrf", secret);
  const response = await fetch(input, { ...init, headers, credentials: "same-origin" });
  if (secret && (response.status === 401 || response.status === 403)) {
    const code = await response.clone().json().then((body: { error?: { code?: string } }) => body?.error?.code, () => undefined);
    if (code && SIGNED_OUT_CODES.has(code)) forgetCsrf();
  }
  return response;
}

export const muster = createMusterClient({ url: location.origin, fetch: sameOriginFetch, retries: 1 });
export type Muster = typeof muster;

/** `CODE: message` for an error the API (or the network) gave. */
export function errorText(error: unknown): string {
  if (isMusterApiError(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
