import type { VaultSecretReader } from "../../vault/tokens.ts";
import { publishingErrors } from "../errors.ts";
import { overLimits } from "../platforms/content-limits.ts";
import type { PlatformAdapter, PlatformLimits, PostContent, SecretSource } from "../platforms/platform.ts";
import type { Platforms } from "../tokens.ts";

/** A platform as `GET /api/content/platforms` lists it. */
export interface PlatformInfo {
  id: string;
  name: string;
  configured: boolean;
  limits: PlatformLimits;
  /** The vault secret it reads its credential from. */
  secret: string;
}

/** The adapters, the vault as their secret source, and the checks a publish request must pass before an approval exists. */
export class PlatformRegistry implements Platforms {
  private readonly deps: { adapters: PlatformAdapter[]; vault: VaultSecretReader };
  constructor(deps: { adapters: PlatformAdapter[]; vault: VaultSecretReader }) {
    this.deps = deps;
  }

  /** Reads a secret from the vault (throws `VAULT_LOCKED` while it is locked). */
  readonly secrets: SecretSource = (name) => this.deps.vault.get(name);

  list(): PlatformInfo[] {
    return this.deps.adapters.map((a) => ({ id: a.id, name: a.name, configured: this.configured(a), limits: a.limits, secret: a.secret }));
  }

  get(id: string): PlatformAdapter | undefined {
    return this.deps.adapters.find((a) => a.id === id);
  }

  /** Unknown platform → 400, missing credential → 409 `PUBLISH_NOT_CONFIGURED`, content over a limit → 400 `CONTENT_OVER_LIMIT`. */
  check(platforms: string[], content: Pick<PostContent, "text" | "media">): void {
    for (const id of platforms) {
      const adapter = this.get(id);
      if (!adapter) throw publishingErrors.PUBLISH_UNKNOWN_PLATFORM({ platform: id });
      if (!adapter.configured(this.secrets)) throw publishingErrors.PUBLISH_NOT_CONFIGURED({ platform: adapter.name, secret: adapter.secret });
      const problems = overLimits(content, adapter.limits);
      if (problems.length) {
        throw publishingErrors.CONTENT_OVER_LIMIT({ platform: adapter.name, summary: problems.map((p) => `${p.path}: ${p.reason}`).join("; ") }, { details: problems });
      }
    }
  }

  private configured(adapter: PlatformAdapter): boolean {
    try {
      return adapter.configured(this.secrets);
    } catch {
      // A locked vault: no credential can be read, so nothing can be published.
      return false;
    }
  }
}
