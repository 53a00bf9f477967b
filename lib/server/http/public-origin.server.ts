/**
 * The origin printed on tickets (link and QR code), so that a customer's phone can open
 * the order page: the operator's PUBLIC_URL; in development without it, this machine's
 * LAN address (a phone on the same Wi-Fi cannot open "localhost"); on one box (production
 * on the embedded database, decision 0047) the request's origin unless it is this machine's
 * loopback (a kiosk on the box itself), then the LAN address; else the request's origin.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The first non-internal IPv4 address of this machine, or null (no network). */
export function lanAddress(interfaces: Interfaces = networkInterfaces()): string | null {
  for (const infos of Object.values(interfaces)) {
    const found = infos?.find((i) => i.family === "IPv4" && !i.internal);
    if (found) return found.address;
  }
  return null;
}

export interface PublicOriginInput {
  /** As lib/server/env.server.ts reads them. */
  env: { PUBLIC_URL?: string; NODE_ENV: string; PORT: number; EMBEDDED?: boolean };
  /** The origin the browser used for this request (see requestOrigin). */
  requestOrigin: string;
  interfaces?: Interfaces;
}

export function publicOrigin({ env, requestOrigin, interfaces }: PublicOriginInput): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  if (env.NODE_ENV === "development" || (env.EMBEDDED && isLoopback(requestOrigin))) {
    const lan = lanAddress(interfaces);
    // PORT=0 picks a free port: the one the browser used is the server's.
    const port = env.PORT || Number(new URL(requestOrigin).port) || 80;
    if (lan) return `http://${lan}${port === 80 ? "" : `:${port}`}`;
  }
  return requestOrigin;
}

/** localhost, 127.0.0.0/8 or [::1]: only a browser on this machine reaches it. */
function isLoopback(origin: string): boolean {
  try {
    const host = new URL(origin).hostname;
    return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]";
  } catch {
    return false;
  }
}
