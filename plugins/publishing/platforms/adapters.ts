import { createAddressPolicy } from "@muster/plugin";
import type { PublishingConfig } from "../config.ts";
import { BlogAdapter } from "./blog.ts";
import { LinkedInAdapter } from "./linkedin.ts";
import type { PlatformAdapter } from "./platform.ts";
import { XAdapter } from "./x.ts";

/** The built-in adapters, configured (they hold no state, so each service may build its own). */
export function createAdapters(config: PublishingConfig): { linkedin: LinkedInAdapter; all: PlatformAdapter[] } {
  const linkedin = new LinkedInAdapter({ apiBaseUrl: config.linkedin.apiBaseUrl, version: config.linkedin.version, maxImageBytes: config.maxImageBytes, mediaAddresses: createAddressPolicy(config.blockedAddressRanges) });
  return { linkedin, all: [linkedin, new XAdapter({ apiBaseUrl: config.x.apiBaseUrl }), new BlogAdapter()] };
}
