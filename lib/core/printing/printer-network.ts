/**
 * Where printers may be (SSRF): printers sit on the restaurant's LAN, so private addresses
 * are fine — but only inside the networks and ports the operator names (PRINTER_NETWORKS,
 * PRINTER_PORTS). Loopback, link-local and cloud metadata addresses need a network named
 * wholly inside their range; unspecified, multicast and broadcast addresses never print.
 */
import ipaddr from "ipaddr.js";
import { METADATA, type AddressRange } from "../webhooks/destination";

/** A port, or an inclusive range of ports. */
export type PortRule = number | readonly [from: number, to: number];

export interface PrinterNetworkPolicy {
  /** PRINTER_NETWORKS as CIDRs ("192.168.0.0/16"; a single address as /32 or /128). Empty: printing to the network is off. */
  networks: readonly string[];
  /** PRINTER_PORTS: ports and ranges. */
  ports: readonly PortRule[];
}

/** The raw-TCP port of ESC/POS network printers (JetDirect, "port 9100"). */
export const DEFAULT_PRINTER_PORT = 9100;

export const MAX_HOST_LENGTH = 253;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * What is wrong with `host` as a printer's address (syntax only, no DNS), or null: a host
 * name (printer.local, tm-t20.lan) or an IPv4 or IPv6 address, without scheme, path or port.
 */
export function printerHostProblem(host: string): string | null {
  if (host.length === 0) return "Host is required";
  if (host.length > MAX_HOST_LENGTH) return `Host must be at most ${MAX_HOST_LENGTH} characters`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) return "Host must be an address such as 192.168.1.50 or printer.local, without http:// or tcp://";
  if (/[/?#@\s\\]/.test(host)) return "Host must be only an address such as 192.168.1.50 or printer.local, without a path or spaces";
  if (host.startsWith("[")) return "Host must be an IPv6 address without brackets (the port has its own field)";
  if (host.includes(":")) {
    if (ipaddr.IPv6.isValid(host)) return null;
    return /^[^:]+:\d+$/.test(host) ? "Host must not include a port: the port has its own field" : `${host} is not a valid IPv6 address`;
  }
  if (/^[\d.]+$/.test(host)) return ipaddr.IPv4.isValidFourPartDecimal(host) ? null : `${host} is not a valid IPv4 address`;
  const labels = host.split(".");
  if (!labels.every((l) => LABEL.test(l)))
    return "Host must be a name of letters, digits and hyphens separated by dots (such as printer.local), or an IP address";
  if (/^\d+$/.test(labels[labels.length - 1]!)) return `${host} is neither a host name nor an IP address`;
  return null;
}

const isAddress = (s: string): boolean => (s.includes(":") ? ipaddr.IPv6.isValid(s) : ipaddr.IPv4.isValidFourPartDecimal(s));

/** An entry of PRINTER_NETWORKS as a CIDR, or why it is not one. */
function networkEntry(entry: string): { cidr: string } | { error: string } {
  const [base = "", bits, ...rest] = entry.split("/");
  const bad = { error: `PRINTER_NETWORKS: "${entry}" is not an address or network such as 192.168.1.0/24 or fd00::/64` };
  if (rest.length > 0 || !isAddress(base)) return bad;
  const addr = ipaddr.parse(base);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    return { error: `PRINTER_NETWORKS: "${entry}" is an IPv4-mapped IPv6 address: write it as IPv4` };
  const max = addr.kind() === "ipv4" ? 32 : 128;
  if (bits === undefined) return { cidr: `${addr.toString()}/${max}` };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return bad;
  const prefix = Number(bits);
  const network = addr.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(entry) : ipaddr.IPv6.networkAddressFromCIDR(entry);
  if (network.toString() !== addr.toString()) return { error: `PRINTER_NETWORKS: "${entry}" has host bits set: did you mean ${network.toString()}/${prefix}?` };
  return { cidr: `${addr.toString()}/${prefix}` };
}

/** PRINTER_NETWORKS: comma-separated networks (CIDR) or single addresses. Unset or empty: no network printing. */
export function parsePrinterNetworks(raw: string | undefined): { networks: string[] } | { error: string } {
  const networks: string[] = [];
  for (const entry of (raw ?? "").split(",").map((e) => e.trim())) {
    if (!entry) continue;
    const r = networkEntry(entry);
    if ("error" in r) return r;
    if (!networks.includes(r.cidr)) networks.push(r.cidr);
  }
  return { networks };
}

/** PRINTER_PORTS: comma-separated ports or ranges ("9100,9101-9103"). Unset or empty: 9100. */
export function parsePrinterPorts(raw: string | undefined): { ports: PortRule[] } | { error: string } {
  const entries = (raw ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return { ports: [DEFAULT_PRINTER_PORT] };
  const ports: PortRule[] = [];
  const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65_535;
  for (const entry of entries) {
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (!m || !valid(from) || !valid(to)) return { error: `PRINTER_PORTS: "${entry}" is not a port (1–65535) or a range such as 9100-9103` };
    if (to < from) return { error: `PRINTER_PORTS: "${entry}" is a range that ends before it starts` };
    ports.push(from === to ? from : [from, to]);
  }
  return { ports };
}

const portText = (r: PortRule): string => (typeof r === "number" ? String(r) : `${r[0]}-${r[1]}`);
const portAllowed = (port: number, rules: readonly PortRule[]): boolean =>
  rules.some((r) => (typeof r === "number" ? r === port : port >= r[0] && port <= r[1]));

/** Why `port` may not be a printer's under `policy` (PRINTER_PORTS), or null. */
export function printerPortRefusal(port: number, policy: Pick<PrinterNetworkPolicy, "ports">): string | null {
  return portAllowed(port, policy.ports) ? null : `port ${port} is not in PRINTER_PORTS (${policy.ports.map(portText).join(", ")})`;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;
const cidrOf = (c: string): AddressRange => ipaddr.parseCIDR(c.includes("/") ? c : `${c}/${c.includes(":") ? 128 : 32}`);
const inRange = (addr: Addr, [net, bits]: AddressRange): boolean => addr.kind() === net.kind() && addr.match(net, bits);
/** Network `inner` lies wholly inside `outer`. */
const within = ([net, bits]: AddressRange, outer: AddressRange): boolean => bits >= outer[1] && inRange(net, outer);

/** Ranges a printer may be in only where the operator names a network wholly inside them. */
const SPECIAL: readonly { ranges: readonly AddressRange[]; what: string; hint: string }[] = [
  { ranges: METADATA, what: "a cloud metadata address", hint: "name exactly this address in PRINTER_NETWORKS" },
  { ranges: ["127.0.0.0/8", "::1/128"].map(cidrOf), what: "a loopback address", hint: "name it in PRINTER_NETWORKS" },
  { ranges: ["169.254.0.0/16", "fe80::/10"].map(cidrOf), what: "a link-local address", hint: "name it in PRINTER_NETWORKS" },
];
/** Never a printer, whatever is named (ipaddr.js range names). */
const NEVER: Record<string, string> = { unspecified: "the unspecified address", multicast: "a multicast address", broadcast: "the broadcast address" };

/** Why `address:port` may not be used for a printer under `policy` (naming the address and the env var to change), or null. */
export function printerAddressRefusal(address: string, port: number, policy: PrinterNetworkPolicy): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  if (policy.networks.length === 0) return "printing to network printers is off: set PRINTER_NETWORKS to the printers' network (such as 192.168.0.0/16)";
  const portRefused = printerPortRefusal(port, policy);
  if (portRefused) return portRefused;
  const addr = ipaddr.process(address);
  const never = NEVER[addr.range()];
  if (never) return `${address} is ${never}: it cannot be a printer`;
  const networks = policy.networks.map(cidrOf);
  const containing = networks.filter((n) => inRange(addr, n));
  for (const special of SPECIAL) {
    const range = special.ranges.find((r) => inRange(addr, r));
    if (!range) continue;
    if (containing.some((n) => within(n, range))) return null;
    const own = `${addr.toString()}/${addr.kind() === "ipv4" ? 32 : 128}`;
    return `${address} is ${special.what}: ${special.hint} (${own}) to use a printer ${special.what === "a loopback address" ? "on this host" : "there"}`;
  }
  if (containing.length === 0) return `${address} is not in PRINTER_NETWORKS (${policy.networks.join(", ")})`;
  // The broadcast address of the most specific named IPv4 network (192.168.1.255 in 192.168.1.0/24).
  const [net, bits] = containing.reduce((a, b) => (b[1] > a[1] ? b : a));
  if (net.kind() === "ipv4" && bits <= 30 && ipaddr.IPv4.broadcastAddressFromCIDR(`${net.toString()}/${bits}`).toString() === addr.toString())
    return `${address} is the broadcast address of ${net.toString()}/${bits}: it cannot be a printer`;
  return null;
}

/** Why a printer's address was refused, as the restaurant reads it (the detail is the operator's). */
export type PrinterRefusalCode = "off" | "port" | "notAllowed";

/** The sentences of the refusal codes, in English (the console has them in its languages: managerPrinters.refusals). */
export const PRINTER_REFUSALS: Record<PrinterRefusalCode, string> = {
  off: "printing to network printers is off on this server",
  port: "this printer port is not allowed",
  notAllowed: "this printer address is not allowed",
};

/**
 * An IPv6 text of an IPv4 address other than `::ffff:a.b.c.d`: ipaddr.js reads `::a.b.c.d`
 * as IPv4-mapped (a.b.c.d) while the socket connects to the IPv4-compatible `::a.b.c.d`,
 * another address, so the form is refused rather than read two ways.
 */
const ambiguousIpv4InIpv6 = (host: string): boolean => host.includes(":") && host.includes(".") && !/^::ffff:\d/i.test(host);

/**
 * The one address to connect to for `host:port`: the name is resolved once and every address
 * it resolves to must be allowed (a name that also resolves into a refused range is refused),
 * so the connection that follows needs no second lookup; the address returned is the
 * canonical form of the one checked (`::ffff:10.0.0.5` → `10.0.0.5`). Nothing is resolved
 * while printing is off. `refusal` is the detail for the operator's log; `code` what the
 * restaurant reads (never a resolved address). Used at creation and at every connection.
 */
export async function printerDestination(
  target: { host: string; port: number },
  policy: PrinterNetworkPolicy,
  resolve: (host: string) => Promise<string[]>,
): Promise<{ address: string } | { refusal: string; code: PrinterRefusalCode; kind: "refused" | "unresolved"; field: "host" | "port" }> {
  const problem = printerHostProblem(target.host);
  if (problem) return { refusal: problem, code: "notAllowed", kind: "refused", field: "host" };
  // Networks first: with none named, that is what the operator must change, whatever the port — and no name is looked up.
  if (policy.networks.length === 0) return { refusal: printerAddressRefusal("0.0.0.0", target.port, policy)!, code: "off", kind: "refused", field: "host" };
  const portRefused = printerPortRefusal(target.port, policy);
  if (portRefused) return { refusal: portRefused, code: "port", kind: "refused", field: "port" };
  const literal = ipaddr.isValid(target.host);
  if (literal && ambiguousIpv4InIpv6(target.host))
    return { refusal: `${target.host} is an IPv4-compatible IPv6 address: write the IPv4 address`, code: "notAllowed", kind: "refused", field: "host" };
  let addresses: string[];
  try {
    addresses = literal ? [target.host] : await resolve(target.host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { refusal: `the printer's host ${target.host} does not resolve`, code: "notAllowed", kind: "unresolved", field: "host" };
  for (const a of addresses) {
    const refusal = ambiguousIpv4InIpv6(a) ? `${a} is an IPv4-compatible IPv6 address` : printerAddressRefusal(a, target.port, policy);
    if (refusal) return { refusal: literal ? refusal : `${target.host} resolves to ${a}: ${refusal}`, code: "notAllowed", kind: "refused", field: "host" };
  }
  return { address: ipaddr.process(addresses[0]!).toString() };
}

/**
 * The key a printer's address is claimed by, one restaurant's, while addresses are not shared
 * (PRINTER_SHARED_ADDRESSES): "host:port" ("[v6]:port") with an IP address in its canonical form and a
 * name in lower case. A name and the address it resolves to are different keys.
 */
export function printerAddressKey(p: { host: string; port: number }): string {
  const host = ipaddr.isValid(p.host) ? ipaddr.process(p.host).toString() : p.host.toLowerCase();
  return host.includes(":") ? `[${host}]:${p.port}` : `${host}:${p.port}`;
}
