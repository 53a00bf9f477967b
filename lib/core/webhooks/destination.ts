/**
 * Where webhooks may go (SSRF): only public unicast addresses, unless the operator allows
 * the restaurant's own network (WEBHOOKS_ALLOW_PRIVATE). Cloud metadata addresses stay
 * refused even then. Checked when a webhook is created and again at every attempt on the
 * address the connection will use (after DNS), by the same rules.
 */
import ipaddr from "ipaddr.js";

export interface DestinationPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback, private, IPv6 link-local, unique-local and CGNAT addresses too. */
  allowPrivate: boolean;
  /**
   * WEBHOOKS_ALLOW_LINK_LOCAL: addresses and ranges of 169.254.0.0/16 the operator named
   * (with allowPrivate only): that range is where clouds run their metadata services.
   */
  allowLinkLocal?: readonly string[];
}

/** Ranges a restaurant's LAN may use, allowed only with allowPrivate (ipaddr.js range names). */
const PRIVATE_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "carrierGradeNat"]);

/** An address range as ipaddr.js parses a CIDR. */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];
type Range = AddressRange;
const cidr = (c: string): Range => ipaddr.parseCIDR(c);
const inRange = (addr: ipaddr.IPv4 | ipaddr.IPv6, [net, bits]: Range): boolean => addr.kind() === net.kind() && addr.match(net, bits);

/**
 * Cloud metadata and credential services: refused whatever the policy and whatever the
 * operator names (they hand out the host's credentials). Printers (lib/core/printing/printer-network.ts)
 * share this list: there an address of it must be named on its own in PRINTER_NETWORKS.
 */
export const METADATA: readonly Range[] = [
  "169.254.169.254/32", // instance metadata: AWS, GCP, Azure, Oracle, DigitalOcean, Hetzner…
  "169.254.170.2/32", // AWS ECS task credentials
  "169.254.170.23/32", // AWS EKS Pod Identity
  "fd00:ec2::/32", // AWS over IPv6: metadata (::254), DNS, NTP, Pod Identity (::23)
  "100.100.100.200/32", // Alibaba Cloud metadata (inside CGNAT)
  "168.63.129.16/32", // Azure's host endpoint (WireServer), a public address
].map(cidr);

/** IPv4 link-local: refused even with allowPrivate, but for what the operator names (allowLinkLocal). */
export const LINK_LOCAL_V4 = "169.254.0.0/16";
const LINK_LOCAL = cidr(LINK_LOCAL_V4);

/**
 * Why an entry of WEBHOOKS_ALLOW_LINK_LOCAL cannot be used (not an IPv4 address or range of
 * 169.254.0.0/16, or a metadata address named alone), or null when it can.
 */
export function linkLocalEntryProblem(entry: string): string | null {
  const range = ipaddr.IPv4.isValidFourPartDecimal(entry)
    ? cidr(`${entry}/32`)
    : ipaddr.IPv4.isValidCIDR(entry) && ipaddr.IPv4.isValidFourPartDecimal(entry.split("/")[0]!)
      ? cidr(entry)
      : null;
  if (!range) return `"${entry}" is not an IPv4 address or range such as 169.254.7.20 or 169.254.7.0/24`;
  if (range[1] < 16 || !inRange(range[0], LINK_LOCAL))
    return `"${entry}" is not inside ${LINK_LOCAL_V4} (WEBHOOKS_ALLOW_PRIVATE alone allows the other private ranges)`;
  if (range[1] === 32 && METADATA.some((m) => inRange(range[0], m))) return `"${entry}" is a cloud credentials service: it cannot be allowed`;
  return null;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  unspecified: "the unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
};

/**
 * What kind of refusal: `private` (a restaurant's own network, which the operator may allow),
 * `metadata` (never), `linkLocal` (169.254.0.0/16: only the addresses the operator names),
 * `other` (special-purpose addresses, never).
 */
export type RefusalKind = "private" | "metadata" | "linkLocal" | "other";

export interface Refusal {
  kind: RefusalKind;
  /** "169.254.169.254 is a cloud metadata address": what the address is. */
  reason: string;
}

/** Why `ip` is refused under `policy`, or null when it may be connected to. Anything but public unicast is refused by default. */
export function addressCheck(ip: string, policy: DestinationPolicy): Refusal | null {
  if (!ipaddr.isValid(ip)) return { kind: "other", reason: `${ip} is not an IP address` };
  const addr = ipaddr.parse(ip);
  if (METADATA.some((m) => inRange(addr, m))) return { kind: "metadata", reason: `${ip} is a cloud metadata address` };
  if (inRange(addr, LINK_LOCAL)) {
    const named =
      policy.allowPrivate && (policy.allowLinkLocal ?? []).some((e) => !linkLocalEntryProblem(e) && inRange(addr, cidr(e.includes("/") ? e : `${e}/32`)));
    return named ? null : { kind: "linkLocal", reason: `${ip} is a link-local address, the range of cloud metadata services` };
  }
  const range = addr.range();
  if (range === "unicast") return null;
  if (PRIVATE_RANGES.has(range)) return policy.allowPrivate ? null : { kind: "private", reason: `${ip} is ${RANGE_WORDS[range]}` };
  return { kind: "other", reason: `${ip} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}` };
}

/** Why `ip` is refused under `policy` (what the address is), or null. */
export const addressRefusal = (ip: string, policy: DestinationPolicy): string | null => addressCheck(ip, policy)?.reason ?? null;

/** True for a public unicast address: anything else reached a restaurant's own network (or the server's). */
export function isPublicAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.parse(ip).range() === "unicast";
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a name. */
export function ipLiteral(url: URL): string | null {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) && (host.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(host)) ? host : null;
}

export const MAX_URL_LENGTH = 2_000;

/**
 * The form of a webhook URL, before any DNS: http(s) only, no credentials or fragment.
 * Plain http only where private destinations are allowed (a LAN POS); public ones need
 * https, since order contents travel over the internet. Returns the problem, or null.
 */
export function urlProblem(raw: string, policy: DestinationPolicy): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute http(s) URL such as https://pos.example.com/nextup";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must start with https://";
  if (url.protocol === "http:" && !policy.allowPrivate) return "must use https:// (order details travel over the internet)";
  if (url.username || url.password) return "must not contain a user name or password";
  if (url.hash) return "must not contain a #fragment";
  if (!url.hostname) return "must name a host";
  return null;
}
