import { clip } from "@muster/plugin";

const ERROR_MAX = 2000;

/**
 * A platform error made safe to store and show: the credential's own value and, for JSON
 * credentials, each string inside it (an API echoing `accessToken` alone would escape the
 * vault's whole-value redaction) are cut out first, then every stored secret value.
 */
export function redactPlatformError(message: string, secretName: string, secretValue: string | null, vaultRedact: (text: string) => string): string {
  let text = message;
  for (const value of credentialParts(secretValue)) text = text.split(value).join(`[redacted:${secretName}]`);
  return clip(vaultRedact(text), ERROR_MAX);
}

function credentialParts(raw: string | null): string[] {
  if (!raw) return [];
  const parts = [raw];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object") for (const v of Object.values(parsed)) if (typeof v === "string") parts.push(v);
  } catch {
    // Not JSON: the whole value is the credential.
  }
  // Longest first, so a part inside another is not cut out of it first; very short parts would blank ordinary words.
  return parts.filter((p) => p.length >= 4).sort((a, b) => b.length - a.length);
}
