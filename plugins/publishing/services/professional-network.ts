import { clip, MusterError, type ApprovalGate, type Logger } from "@muster/plugin";
import type { VaultSecretReader } from "../../vault/tokens.ts";
import { LINKEDIN_TOKEN, type LinkedInAdapter, type LinkedInProfile } from "../platforms/linkedin.ts";
import { PlatformFailure, type PlatformHttp } from "../platforms/platform-http.ts";
import { PUBLISH_KIND, type Platforms, type ProfessionalNetwork, type PublishRequested } from "../tokens.ts";
import type { PublishPayload } from "./publish-payload.ts";
import { redactPlatformError } from "./redact-error.ts";

/** The spec's Professional-network connection record, plus why it is not connected when the platform refused the token. */
export interface NetworkStatus {
  connected: boolean;
  profile: LinkedInProfile | null;
  reason?: string;
}

export interface ProfessionalNetworkDeps {
  linkedin: LinkedInAdapter;
  platforms: Platforms;
  http: PlatformHttp;
  vault: VaultSecretReader;
  gate: ApprovalGate;
  logger: Logger;
}

/** `/api/professional-network`: the connection (LinkedIn userinfo) and a post request through the gate. */
export class ProfessionalNetworkService implements ProfessionalNetwork {
  private readonly deps: ProfessionalNetworkDeps;
  constructor(deps: ProfessionalNetworkDeps) {
    this.deps = deps;
  }

  async status(): Promise<NetworkStatus> {
    let token: string | null;
    try {
      token = this.deps.vault.get(LINKEDIN_TOKEN);
    } catch (error) {
      // A locked vault: the connection cannot be checked, which is "not connected", not a server fault.
      if (!(error instanceof MusterError)) throw error;
      return { connected: false, profile: null, reason: `the vault cannot be read (${error.code})` };
    }
    if (!token) return { connected: false, profile: null, reason: `${LINKEDIN_TOKEN} is not in the vault` };
    try {
      return { connected: true, profile: await this.deps.linkedin.profile(token, this.deps.http) };
    } catch (error) {
      if (!(error instanceof PlatformFailure)) throw error;
      const reason = redactPlatformError(error.message, LINKEDIN_TOKEN, token, (t) => this.deps.vault.redact(t));
      this.deps.logger.info({ reason }, "professional network not connected");
      return { connected: false, profile: null, reason };
    }
  }

  /** 409 `PUBLISH_NOT_CONFIGURED` without the token (nothing queued); otherwise a pending `publishing.publish` approval. */
  async requestPost(input: { text: string; imageUrl?: string; requestedBy: string }): Promise<PublishRequested> {
    const media = input.imageUrl ? [{ url: input.imageUrl }] : [];
    this.deps.platforms.check(["linkedin"], { text: input.text, media });
    const payload: PublishPayload = { draftId: null, title: clip(input.text.split("\n")[0]!, 80), text: input.text, media, platforms: ["linkedin"], scheduledAt: null };
    return this.deps.gate.request(PUBLISH_KIND, payload, {
      requestedBy: input.requestedBy,
      title: `Post to the professional network: "${clip(payload.title, 200)}"`,
    });
  }
}
