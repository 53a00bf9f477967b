/**
 * The hosts a development server's pages may be opened by besides localhost (Next's
 * `allowedDevOrigins`): Next refuses its dev resources (/_next/hmr) to any other host, and
 * a page refused them never hydrates. Plain JavaScript: next.config.js imports it under Node.
 */
import { hostname, networkInterfaces } from "node:os";

/** A host as a browser's Origin header names it (lower case, IPv6 compressed and in brackets), or null. */
function originHost(host) {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

/**
 * Every address of this machine (a phone on the Wi-Fi opens the LAN address tickets print),
 * its host name (and `<name>.local`, its mDNS name), and PUBLIC_URL's host. Only hosts that
 * reach this machine are listed, so another site still cannot read the dev resources.
 *
 * @param {{ interfaces?: NodeJS.Dict<import("node:os").NetworkInterfaceInfo[]>, publicUrl?: string, hostName?: string }} [input]
 * @returns {string[]}
 */
export function devOrigins({ interfaces = networkInterfaces(), publicUrl, hostName = hostname() } = {}) {
  const hosts = [];
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      // A link-local zone (`fe80::1%eth0`) cannot be written in a URL; the address can.
      hosts.push(originHost(info.family === "IPv6" ? `[${info.address.split("%")[0]}]` : info.address));
    }
  }
  if (/^[A-Za-z0-9.-]+$/.test(hostName)) hosts.push(originHost(hostName), hostName.includes(".") ? null : originHost(`${hostName}.local`));
  if (publicUrl) {
    try {
      hosts.push(new URL(publicUrl).hostname);
    } catch {
      // server.ts refuses to start with a malformed PUBLIC_URL and says why.
    }
  }
  return [...new Set(hosts.filter((h) => h !== null))];
}
