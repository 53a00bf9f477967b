/**
 * Who is asking: the address of the TCP peer, or — only through proxies the operator named
 * in TRUST_PROXY — the address they forwarded (proxy-addr, as Express does). server.ts
 * stamps it on every request in CLIENT_ADDRESS_HEADER, replacing anything a client sent, so
 * throttles keyed on it cannot be dodged by sending a made-up X-Forwarded-For.
 */
import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

export const CLIENT_ADDRESS_HEADER = "x-nextup-client-address";
/** "https" or "http", as the browser reached us: PUBLIC_URL's, else a trusted proxy's word, else the connection's. */
export const CLIENT_PROTO_HEADER = "x-nextup-client-proto";
/** The host the browser used: a trusted proxy's X-Forwarded-Host, else Host. */
export const CLIENT_HOST_HEADER = "x-nextup-client-host";

export type TrustProxy = (addr: string, hop: number) => boolean;

/** TRUST_PROXY: unset or "false" trusts no proxy; a number trusts that many hops; else addresses, CIDRs or loopback/linklocal/uniquelocal, comma-separated. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? "").trim();
  if (v === "" || v === "false") return () => false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_addr, hop) => hop < hops;
  }
  return proxyaddr.compile(
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** The client's address: the TCP peer's, or the one a trusted proxy forwarded. */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  return proxyaddr(req, trust);
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)?.split(",")[0]?.trim() || undefined;

/**
 * Stamps who is asking and how they reached us, replacing anything a client sent under
 * these names: X-Forwarded-Proto and -Host count only from a proxy the operator trusts, so
 * the session cookie's `Secure` and the links printed on tickets never follow a client's word.
 */
export function stampClientAddress(req: IncomingMessage, trust: TrustProxy, opts: { httpsPublicUrl?: boolean } = {}): void {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(req, trust);
  req.headers[CLIENT_PROTO_HEADER] = clientProto(req, trust, opts.httpsPublicUrl ?? false);
  req.headers[CLIENT_HOST_HEADER] = (peerTrusted(req, trust) ? first(req.headers["x-forwarded-host"]) : undefined) ?? req.headers.host ?? "";
}

const peerTrusted = (req: IncomingMessage, trust: TrustProxy): boolean => req.socket.remoteAddress !== undefined && trust(req.socket.remoteAddress, 0);

/** "https" when PUBLIC_URL is https or a trusted proxy forwarded `X-Forwarded-Proto: https`. */
export function clientProto(req: IncomingMessage, trust: TrustProxy, httpsPublicUrl: boolean): "http" | "https" {
  if (httpsPublicUrl) return "https";
  return peerTrusted(req, trust) && first(req.headers["x-forwarded-proto"])?.toLowerCase() === "https" ? "https" : "http";
}

/** The address server.ts stamped on a request (route handlers and server actions read it here). */
export function stampedClientAddress(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}

/**
 * The key a client address is limited under: an IPv4 address as it is, an IPv6 address by
 * its /64 (one home or phone network holds a whole /64, so a flood could otherwise take a
 * fresh address for every request); an IPv4-mapped IPv6 address as its IPv4.
 */
export function limitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toNormalizedString()}/64`).toString()}/64`;
}
