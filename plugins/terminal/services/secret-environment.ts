import type { VaultSecretReader } from "../../vault/tokens.ts";
import { terminalErrors } from "../errors.ts";

/**
 * Names a secret may not be injected under: they decide which program runs or what it loads
 * (the sandbox's own PATH/HOME, loader and interpreter hooks), or are Muster's credentials.
 */
const PROTECTED = new Set(["PATH", "HOME", "TMPDIR", "LANG", "TERM", "SHELL", "IFS", "ENV", "BASH_ENV", "PS4", "CDPATH", "VAULT_KEY", "NEW_VAULT_KEY", "GATEWAY_TOKEN", "MUSTER_API_TOKEN"]);
const PROTECTED_PREFIXES = ["LD_", "DYLD_", "BASH_FUNC_", "GIT_", "NODE_", "PYTHON", "PERL", "RUBY", "MUSTER_"];

/**
 * The variables of a `secrets` map with their values read from the vault. 403 for protected
 * names, 404 `TERMINAL_SECRET_NOT_FOUND` for unknown secrets; a locked vault answers its own 503.
 */
export function secretVariables(secrets: Record<string, string>, vault: VaultSecretReader): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [envVar, name] of Object.entries(secrets)) {
    if (PROTECTED.has(envVar) || PROTECTED_PREFIXES.some((prefix) => envVar.startsWith(prefix))) throw terminalErrors.TERMINAL_ENV_VAR_PROTECTED({ envVar });
    const value = vault.get(name);
    if (value === null) throw terminalErrors.TERMINAL_SECRET_NOT_FOUND({ name, envVar });
    env[envVar] = value;
  }
  return env;
}
