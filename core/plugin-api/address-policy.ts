// Which IP addresses an outbound fetch may connect to. Addresses embedding an IPv4
// address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are checked as that IPv4 address too,
// so `[::ffff:127.0.0.1]` is refused like `127.0.0.1`.
import { lookup as dnsLookup } from "node:dns";
import { BlockList, isIP, isIPv4, type LookupFunction } from "node:net";

/**
 * Loopback, private, link-local, unique-local, CGNAT, unspecified, multicast and other
 * special-purpose ranges (IANA special-purpose registries): nothing a skill URL should reach.
 */
export const DEFAULT_BLOCKED_RANGES: readonly string[] = Object.freeze([
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
  "2001:db8::/32",
]);

/** Whether `value` is an `address/prefix` CIDR block. */
export function isCidr(value: string): boolean {
  const [address, prefix, extra] = value.split("/");
  if (extra !== undefined || !address || !prefix || !/^\d{1,3}$/.test(prefix)) return false;
  const family = isIP(address);
  return family !== 0 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...zeros, ...t].map((g) => parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** IPv4 addresses carried inside an IPv6 address, for the forms that route to them. */
export function embeddedIPv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return [];
  const found: string[] = [];
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(5) && g[5] === 0xffff) found.push(v4(g[6]!, g[7]!)); // ::ffff:a.b.c.d
  if (zeroPrefix(4) && g[4] === 0xffff && g[5] === 0) found.push(v4(g[6]!, g[7]!)); // ::ffff:0:a.b.c.d
  if (zeroPrefix(6) && (g[6] !== 0 || g[7]! > 1)) found.push(v4(g[6]!, g[7]!)); // ::a.b.c.d (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) found.push(v4(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x2002) found.push(v4(g[1]!, g[2]!)); // 6to4
  return found;
}

export interface AddressPolicy {
  /** True when a connection to this IP address must not be made. Non-IP input is blocked. */
  isBlocked(address: string): boolean;
}

/** Builds the policy from CIDR blocks (validated by the plugin's config schema). */
export function createAddressPolicy(ranges: readonly string[]): AddressPolicy {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split("/") as [string, string];
    list.addSubnet(address, Number(prefix), isIPv4(address) ? "ipv4" : "ipv6");
  }
  const blocked = (address: string): boolean => {
    const family = isIP(address);
    if (family === 4) return list.check(address, "ipv4");
    if (family === 6) return list.check(address, "ipv6") || embeddedIPv4(address).some((a) => list.check(a, "ipv4"));
    return true;
  };
  return { isBlocked: blocked };
}

/** The error a {@link guardedLookup} fails a connection with. */
export class BlockedAddressError extends Error {
  readonly code = "EADDRBLOCKED";
  readonly address: string;
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which outbound requests may not reach`);
    this.name = "BlockedAddressError";
    this.address = address;
  }
}

/**
 * A `lookup` for `http.request`/`net.connect` that resolves the host and fails when any
 * address it resolves to is blocked: the address checked is the address connected to, so a
 * second DNS answer (rebinding) cannot slip past. IP literals never reach a `lookup`: check
 * them with `policy.isBlocked` before connecting.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error);
      const blocked = addresses.find((a) => policy.isBlocked(a.address));
      if (blocked || addresses.length === 0) return callback(new BlockedAddressError(hostname, blocked?.address ?? "no address"));
      if (options?.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}
