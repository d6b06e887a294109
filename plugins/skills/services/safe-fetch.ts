// An outbound GET that cannot be turned against the local machine or network (SSRF):
// the host name is resolved once, every resolved address is checked against the address
// policy, and the connection is pinned to the checked address (a custom `lookup`), so a
// second DNS answer (rebinding) is never used. Redirects are followed by hand, each one
// checked the same way. A deadline covers the whole exchange; the body is size-capped.
// The callback `lookup` of node:dns, not node:dns/promises: that module is not loaded by
// anything else at start, and loading it cost a cold start ~20 ms (docs/benchmarks.md).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { AddressPolicy } from "@muster/plugin";
import { skillsErrors } from "../errors.ts";

export interface SafeFetchOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export interface FetchedText {
  body: Buffer;
  contentType: string;
  /** The URL that answered, after redirects. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses and checks the URL's form: http(s) only, no credentials. */
export function checkUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw skillsErrors.SKILLS_URL_INVALID({ reason: "it is not a valid URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw skillsErrors.SKILLS_URL_INVALID({ reason: "only http and https URLs are fetched" });
  if (url.username || url.password) throw skillsErrors.SKILLS_URL_INVALID({ reason: "URLs with credentials are refused" });
  if (!url.hostname) throw skillsErrors.SKILLS_URL_INVALID({ reason: "the URL has no host" });
  return url;
}

/** Resolves the URL's host to every address and refuses if any is blocked; returns the one to connect to. */
async function checkedAddress(url: URL, policy: AddressPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(host, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))),
      );
    } catch (cause) {
      throw skillsErrors.SKILLS_FETCH_FAILED({ reason: `the host ${host} could not be resolved` }, { cause });
    }
  }
  if (addresses.length === 0) throw skillsErrors.SKILLS_FETCH_FAILED({ reason: `the host ${host} has no address` });
  const blocked = addresses.find((a) => policy.isBlocked(a.address));
  if (blocked) throw skillsErrors.SKILLS_URL_BLOCKED({ address: blocked.address }, { details: { host, address: blocked.address } });
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` that always answers with the already checked address. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

function get(url: URL, pin: { address: string; family: 4 | 6 }, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        method: "GET",
        agent: false,
        lookup: pinnedLookup(pin.address, pin.family),
        signal,
        headers: { "user-agent": "Muster/1.0 (skills import)", accept: "text/markdown, text/plain;q=0.9, text/*;q=0.8", "accept-encoding": "identity" },
      },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw skillsErrors.SKILLS_CONTENT_TOO_LARGE({ maxBytes });
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.destroy();
      throw skillsErrors.SKILLS_CONTENT_TOO_LARGE({ maxBytes });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** GETs `rawUrl` under the address policy, deadline, size cap and redirect limit. */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<FetchedText> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let url = checkUrl(rawUrl);
    for (let hop = 0; ; hop++) {
      const pin = await checkedAddress(url, options.policy);
      if (controller.signal.aborted) throw skillsErrors.SKILLS_FETCH_TIMEOUT({ timeoutMs: options.timeoutMs });
      const response = await get(url, pin, controller.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        response.destroy();
        if (hop >= options.maxRedirects) throw skillsErrors.SKILLS_FETCH_FAILED({ reason: `more than ${options.maxRedirects} redirects` });
        url = checkUrl(response.headers.location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw skillsErrors.SKILLS_FETCH_FAILED({ reason: `the server answered ${status}` }, { details: { status } });
      }
      const body = await readCapped(response, options.maxBytes);
      return { body, contentType: String(response.headers["content-type"] ?? ""), url: url.href };
    }
  } catch (error) {
    if (controller.signal.aborted) throw skillsErrors.SKILLS_FETCH_TIMEOUT({ timeoutMs: options.timeoutMs }, { cause: error });
    if ((error as { code?: string }).code && !(error as { status?: number }).status) {
      throw skillsErrors.SKILLS_FETCH_FAILED({ reason: `connection failed (${(error as { code: string }).code})` }, { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
