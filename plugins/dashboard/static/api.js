// fetch against the same origin. The session cookie rides along by itself; writes add the
// tab's CSRF secret. Failures become ApiError carrying the API's stable error code.
import { csrfSecret } from "./session.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Codes that mean "this browser has no usable session": the page then asks to sign in. */
export const SIGNED_OUT_CODES = new Set(["SESSION_TOKEN_REQUIRED", "SESSION_CSRF_REQUIRED", "SESSION_COOKIE_NOT_SAME_ORIGIN"]);

async function call(method, path, body) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const secret = csrfSecret();
  if (method !== "GET" && secret) headers["x-muster-csrf"] = secret;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", "The server did not answer. Is muster still running?");
  }
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.error?.code ?? `HTTP_${response.status}`, data?.error?.message ?? `The server answered ${response.status}`);
  }
  return data;
}

export const api = {
  get: (path) => call("GET", path),
  patch: (path, body) => call("PATCH", path, body),
};
