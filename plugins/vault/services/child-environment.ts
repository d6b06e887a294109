// The environment for child processes Muster starts (terminal, git, tools). Injected
// secrets live only in this in-memory map: never in the server's own process.env.
import { vaultErrors } from "../errors.ts";
import { CREDENTIAL_VARIABLES, isProtectedVariable } from "./protected-env.ts";
import type { ChildProcessEnvironment } from "../tokens.ts";

export interface ChildEnvOptions {
  /** Include the injected secrets (default true). The terminal passes false unless told to inject. */
  injected?: boolean;
}

/**
 * Injected variables, by environment variable name. Lost at restart on purpose. In team mode
 * (PostgreSQL) the database's list of the live instances' injections replaces the map at
 * each reload of the vault's view (`share`).
 */
export class ChildEnvironment implements ChildProcessEnvironment {
  private readonly injected = new Map<string, { secret: string; value: string }>();

  /** Sets `envVar` to a secret's value for future child processes. Throws 403 for protected names. */
  inject(envVar: string, secret: string, value: string): void {
    if (isProtectedVariable(envVar)) throw vaultErrors.VAULT_ENV_VAR_PROTECTED({ envVar });
    this.injected.set(envVar, { secret, value });
  }

  /** Follows a secret's new value into the variables it was injected under. */
  refresh(secret: string, value: string): void {
    for (const entry of this.injected.values()) if (entry.secret === secret) entry.value = value;
  }

  /** Drops every variable injected from a deleted secret. */
  forget(secret: string): void {
    for (const [envVar, entry] of this.injected) if (entry.secret === secret) this.injected.delete(envVar);
  }

  share(injections: { envVar: string; secret: string; value: string }[]): void {
    this.injected.clear();
    for (const { envVar, secret, value } of injections) if (!isProtectedVariable(envVar)) this.injected.set(envVar, { secret, value });
  }

  /**
   * A copy of `base` (default `process.env`) without Muster's credentials (`VAULT_KEY`,
   * `GATEWAY_TOKEN`, `MUSTER_API_TOKEN`, `NEW_VAULT_KEY`), plus the injected secrets.
   * Pass it as `env` to `spawn`; it is a fresh object each call.
   */
  childEnv(base: NodeJS.ProcessEnv = process.env, options: ChildEnvOptions = {}): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(base)) {
      if (typeof value === "string" && !CREDENTIAL_VARIABLES.includes(name)) env[name] = value;
    }
    if (options.injected !== false) for (const [envVar, { value }] of this.injected) env[envVar] = value;
    return env;
  }

  /** Which variables are injected from which secret (names only). */
  variables(): { envVar: string; secret: string }[] {
    return [...this.injected].map(([envVar, { secret }]) => ({ envVar, secret }));
  }

  /** Injected values with their secret names, for redaction. */
  values(): { name: string; value: string }[] {
    return [...this.injected.values()].map(({ secret, value }) => ({ name: secret, value }));
  }
}
