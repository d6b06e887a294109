// Several gateways (DESIGN §16): which links the host opens, each with its own token and
// device identity. One gateway, configured as before (GATEWAY_URL, GATEWAY_TOKEN, or
// gatewayUrl in muster.config.json), is one link named "default".
//
// The rule, in full (docs/team.md, "Several gateways"):
// - GATEWAY_URL lists the gateways, comma-separated, each `url` or `name=url`; an unnamed
//   first entry is "default", later unnamed ones "gateway-2", "gateway-3"… by position.
//   Without GATEWAY_URL, muster.config.json's `gateways` ([{name, url, scopes?,
//   deviceIdentity?}]), else its `gatewayUrl`, else ws://127.0.0.1:18789.
// - A link's token: `GATEWAY_TOKEN_<NAME>` (the name upper-cased, `-` as `_`), else its entry
//   of GATEWAY_TOKEN read as a comma list in the links' order (an empty entry: no token). With
//   one link GATEWAY_TOKEN is taken whole, as before. Tokens are never read from the file.
import { z } from "zod";

export interface GatewayLinkConfig {
  /** The link's name: how agents, ids and /api/health name the gateway. */
  name: string;
  /** The WebSocket URL, or `off`. */
  url: string;
  token: string | null;
  scopes: string[];
  deviceIdentity: "auto" | "on" | "off";
}

export const DEFAULT_LINK = "default";
const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const NAME_RULE = "must be a lower-case name (letters, digits, -; at most 32, starting with a letter)";

export const gatewayUrlSchema = z.string().refine((v) => v === "off" || /^wss?:\/\/[^/?#\s]+/.test(v), "must be a ws:// or wss:// URL, or off");

/** One entry of muster.config.json's `gateways`; a token here is refused (strict): tokens live in the environment. */
export const gatewayEntrySchema = z.strictObject({
  name: z.string().regex(NAME, NAME_RULE),
  url: gatewayUrlSchema,
  scopes: z.array(z.string().regex(/^operator\.[a-z.]+$/)).optional(),
  deviceIdentity: z.enum(["auto", "on", "off"]).optional(),
});
export type GatewayEntry = z.output<typeof gatewayEntrySchema>;

/** The variable that holds a named link's token. */
export const tokenVariable = (name: string) => `GATEWAY_TOKEN_${name.toUpperCase().replace(/-/g, "_")}`;

/**
 * Reads GATEWAY_URL as a list of `url` or `name=url` entries. Returns the entries, or the
 * problem with the value (said in full, for CONFIG_INVALID).
 */
export function parseGatewayUrlList(value: string): { entries: { name: string; url: string }[] } | { problem: string } {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) return { problem: "GATEWAY_URL: an entry of the comma-separated list is empty" };
  const entries: { name: string; url: string }[] = [];
  for (const [index, item] of items.entries()) {
    const named = /^([^=/:]+)=(.*)$/.exec(item);
    const name = named ? named[1]!.trim() : index === 0 ? DEFAULT_LINK : `gateway-${index + 1}`;
    const url = named ? named[2]!.trim() : item;
    if (!NAME.test(name)) return { problem: `GATEWAY_URL: gateway name "${name}" ${NAME_RULE}` };
    if (!gatewayUrlSchema.safeParse(url).success) return { problem: `GATEWAY_URL: "${url}" (gateway "${name}") must be a ws:// or wss:// URL, or off` };
    entries.push({ name, url });
  }
  return { entries };
}

/**
 * The links with their tokens. Returns the problem instead when names repeat, or when
 * GATEWAY_TOKEN's list does not have one entry per link.
 */
export function resolveGatewayLinks(
  entries: readonly { name: string; url: string; scopes?: string[] | undefined; deviceIdentity?: "auto" | "on" | "off" | undefined }[],
  env: NodeJS.ProcessEnv,
  defaults: { scopes: string[]; deviceIdentity: "auto" | "on" | "off"; token: string | null },
  source: string,
): { links: GatewayLinkConfig[] } | { problem: string } {
  const seen = new Set<string>();
  for (const { name } of entries) {
    if (seen.has(name)) return { problem: `${source}: the gateway name "${name}" is used twice (each gateway needs its own name)` };
    seen.add(name);
  }
  let positional: (string | null)[];
  if (entries.length === 1) positional = [defaults.token];
  else if (defaults.token === null) positional = entries.map(() => null);
  else {
    positional = defaults.token.split(",").map((t) => t.trim() || null);
    if (positional.length !== entries.length) {
      return {
        problem: `GATEWAY_TOKEN lists ${positional.length} token(s) for ${entries.length} gateways (${entries.map((e) => e.name).join(", ")}): give one per gateway, in the same order (an empty entry for none), or set ${entries.map((e) => tokenVariable(e.name)).join(" / ")}`,
      };
    }
  }
  return {
    links: entries.map((entry, index) => ({
      name: entry.name,
      url: entry.url,
      token: nonEmpty(env[tokenVariable(entry.name)]) ?? positional[index] ?? null,
      scopes: entry.scopes ?? defaults.scopes,
      deviceIdentity: entry.deviceIdentity ?? defaults.deviceIdentity,
    })),
  };
}

const nonEmpty = (v: string | undefined) => (v && v.trim() ? v.trim() : null);
