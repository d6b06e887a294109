import { MusterError } from "@muster/plugin";
import { ragErrors } from "../errors.ts";

/**
 * POSTs JSON to an embedding API with a timeout and maps every failure to a coded error:
 * refused connection or HTTP error → RAG_PROVIDER_UNAVAILABLE, no answer in time →
 * RAG_PROVIDER_TIMEOUT, unparsable body → RAG_PROVIDER_BAD_RESPONSE.
 */
export async function postJson(provider: string, url: string, body: unknown, options: { timeoutMs: number; headers?: Record<string, string> }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) throw ragErrors.RAG_PROVIDER_TIMEOUT({ provider, timeoutMs: options.timeoutMs });
    throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider, reason: `cannot reach ${new URL(url).origin}` });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) throw ragErrors.RAG_PROVIDER_TIMEOUT({ provider, timeoutMs: options.timeoutMs });
    throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider, reason: "the answer broke off" });
  }
  if (!res.ok) throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider, reason: `HTTP ${res.status}` });
  try {
    return JSON.parse(text);
  } catch {
    throw ragErrors.RAG_PROVIDER_BAD_RESPONSE({ provider, reason: "the answer is not JSON" });
  }
}

export const isMusterError = (e: unknown): e is MusterError => e instanceof MusterError;
