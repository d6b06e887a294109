import { DEFAULT_BLOCKED_RANGES, isCidr, z } from "@muster/plugin";

/** `config.skills` in muster.config.json. */
export const skillsConfig = z.strictObject({
  /**
   * CIDR blocks a skill URL may not resolve to (checked for every resolved address and
   * every redirect). Defaults to all loopback, private, link-local, unique-local, CGNAT,
   * unspecified and other special-purpose ranges. Narrowing it is an explicit decision.
   */
  blockedAddressRanges: z.array(z.string().refine(isCidr, "must be a CIDR block such as 10.0.0.0/8")).default([...DEFAULT_BLOCKED_RANGES]),
  /** Whole-fetch deadline, redirects included. */
  fetchTimeoutMs: z.number().int().min(100).max(60_000).default(10_000),
  /** Largest skill accepted, fetched or posted. */
  maxBytes: z.number().int().min(1024).max(1024 * 1024).default(256 * 1024),
  /** Redirects followed (each re-checked against the address policy). */
  maxRedirects: z.number().int().min(0).max(10).default(3),
});

export type SkillsConfig = z.output<typeof skillsConfig>;
