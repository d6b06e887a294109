import { clip } from "@muster/plugin";
import { credentialParts } from "../../vault/tokens.ts";

const ERROR_MAX = 2000;

/**
 * A platform error made safe to store and show: the credential in use is cut out first (its
 * value and, for a JSON credential, each string inside it: the vault's `credentialParts`,
 * the same parts its redaction hides), then every stored secret value by the vault. The
 * first step does not depend on the vault's view of its secrets, so the credential that was
 * just sent is hidden even if that view cannot be read.
 */
export function redactPlatformError(message: string, secretName: string, secretValue: string | null, vaultRedact: (text: string) => string): string {
  let text = message;
  for (const value of credentialParts(secretValue)) text = text.split(value).join(`[redacted:${secretName}]`);
  return clip(vaultRedact(text), ERROR_MAX);
}
