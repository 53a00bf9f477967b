/**
 * Where webhooks may go (SSRF): only public unicast addresses, unless the operator allows
 * the restaurant's own network (WEBHOOKS_ALLOW_PRIVATE). Checked when a webhook is created
 * and again at every attempt on the address the connection will use (after DNS).
 */
import ipaddr from "ipaddr.js";

export interface DestinationPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback, private, link-local and unique-local addresses too. */
  allowPrivate: boolean;
}

/** Ranges a restaurant's LAN may use, allowed only with allowPrivate (ipaddr.js range names). */
const PRIVATE_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "carrierGradeNat"]);

/** Cloud metadata services: never, whatever the policy (they hand out the host's credentials). */
const METADATA = ["169.254.169.254", "169.254.170.2", "fd00:ec2::254"].map((a) => ipaddr.parse(a).toNormalizedString());

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

/** Why `ip` is refused under `policy`, or null when it may be connected to. Anything but public unicast is refused by default. */
export function addressRefusal(ip: string, policy: DestinationPolicy): string | null {
  if (!ipaddr.isValid(ip)) return `${ip} is not an IP address`;
  const addr = ipaddr.parse(ip);
  if (METADATA.includes(addr.toNormalizedString())) return `${ip} is a cloud metadata address`;
  const range = addr.range();
  if (range === "unicast") return null;
  if (policy.allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return `${ip} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}`;
}

/** True for an address of a restaurant's own network (loopback, private, link-local…), which only the operator may allow. */
export function isPrivateAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && PRIVATE_RANGES.has(ipaddr.parse(ip).range()) && !METADATA.includes(ipaddr.parse(ip).toNormalizedString());
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
