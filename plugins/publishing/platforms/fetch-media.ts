import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { guardedLookup, type AddressPolicy } from "@muster/plugin";
import { PlatformFailure, type PlatformHttp } from "./platform-http.ts";

/**
 * GETs the media URL under the address policy: a URL an agent wrote must not make Muster read
 * a loopback or private service (cloud metadata, a local admin page) and upload its answer to
 * a public platform. The address checked is the address connected to (guarded lookup, no
 * second DNS answer); redirects are not followed; no credential is sent.
 */
function get(url: URL, policy: AddressPolicy, timeoutMs: number): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && policy.isBlocked(host)) {
    return Promise.reject(new PlatformFailure("failed", `fetching the media: ${host} is a loopback, private or reserved address, which outbound requests may not reach`));
  }
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: "GET", agent: false, lookup: guardedLookup(policy), signal: AbortSignal.timeout(timeoutMs), headers: { accept: "image/*", "accept-encoding": "identity" } },
      resolve,
    );
    request.on("error", (error: Error & { code?: string }) => {
      if (error.code === "EADDRBLOCKED") reject(new PlatformFailure("failed", `fetching the media: ${error.message}`));
      else if (error.name === "AbortError" || error.name === "TimeoutError") reject(new PlatformFailure("failed", `fetching the media: no answer within ${timeoutMs} ms; nothing was posted`));
      else reject(new PlatformFailure("failed", `fetching the media: the connection failed (${error.code ?? error.message}); nothing was posted`));
    });
    request.end();
  });
}

/**
 * Downloads one approved media URL for upload, refusing blocked addresses, types the platform
 * does not take and bodies over `maxBytes` (read in chunks and cut off, so a lying
 * Content-Length cannot make Muster buffer more). A failure here happens before anything is posted.
 */
export async function fetchMedia(http: PlatformHttp, policy: AddressPolicy, url: string, maxBytes: number, types: string[]): Promise<{ bytes: Buffer; type: string }> {
  const res = await get(new URL(url), policy, http.timeoutMs);
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 299) {
    res.destroy();
    throw new PlatformFailure("failed", `fetching the media: HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`);
  }
  const type = String(res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (!types.includes(type)) {
    res.destroy();
    throw new PlatformFailure("failed", `fetching the media: content type "${type || "none"}" is not one of ${types.join(", ")}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      size += (chunk as Buffer).byteLength;
      if (size > maxBytes) throw new PlatformFailure("failed", `fetching the media: larger than ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    res.destroy();
    if (error instanceof PlatformFailure) throw error;
    throw new PlatformFailure("failed", `fetching the media: the download broke off (${(error as Error).message}); nothing was posted`);
  }
  return { bytes: Buffer.concat(chunks), type };
}
