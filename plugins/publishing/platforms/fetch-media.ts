import { PlatformFailure, type PlatformHttp } from "./platform-http.ts";

/**
 * Downloads one approved media URL for upload, refusing types the platform does not take and
 * bodies over `maxBytes` (read in chunks and cut off, so a lying Content-Length cannot make
 * Muster buffer more). A failure here happens before anything is posted.
 */
export async function fetchMedia(http: PlatformHttp, url: string, maxBytes: number, types: string[]): Promise<{ bytes: Buffer; type: string }> {
  const res = await http.call("fetching the media", url, { method: "GET" });
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!types.includes(type)) {
    await res.body?.cancel();
    throw new PlatformFailure("failed", `fetching the media: content type "${type || "none"}" is not one of ${types.join(", ")}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new PlatformFailure("failed", `fetching the media: larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return { bytes: Buffer.concat(chunks), type };
}
