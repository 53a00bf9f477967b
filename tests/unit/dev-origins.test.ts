import type { NetworkInterfaceInfo } from "node:os";
import { isCsrfOriginAllowed } from "next/dist/server/app-render/csrf-protection";
import { describe, expect, it } from "vitest";
import { devOrigins } from "@/lib/server/dev/dev-origins.mjs";
import { publicOrigin } from "@/lib/server/http/public-origin.server";

const iface = (address: string, family: "IPv4" | "IPv6", internal: boolean) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null }) as unknown as NetworkInterfaceInfo;

const interfaces = {
  lo: [iface("127.0.0.1", "IPv4", true), iface("::1", "IPv6", true)],
  wlan0: [iface("192.168.1.23", "IPv4", false), iface("FD00:0:0:0::23", "IPv6", false), iface("fe80::1%wlan0", "IPv6", false)],
  eth1: [iface("10.0.0.5", "IPv4", false)],
};

/** What Next's dev server does with a page's Origin: compares its host name with localhost and allowedDevOrigins. */
function nextAllows(pageUrl: string, allowed: string[]): boolean {
  return isCsrfOriginAllowed(new URL(pageUrl).hostname, ["**.localhost", "localhost", ...allowed]);
}

describe("the hosts a development server's pages may be opened by (allowedDevOrigins)", () => {
  it("lists every address of this machine as a browser's Origin names it: IPv6 compressed, in brackets, without a zone", () => {
    expect(devOrigins({ interfaces, hostName: "pi" })).toEqual(["127.0.0.1", "[::1]", "192.168.1.23", "[fd00::23]", "[fe80::1]", "10.0.0.5", "pi", "pi.local"]);
  });

  it("adds PUBLIC_URL's host, and ignores one that is not a URL", () => {
    expect(devOrigins({ interfaces: {}, hostName: "", publicUrl: "https://Queue.Example.com:8443" })).toEqual(["queue.example.com"]);
    expect(devOrigins({ interfaces: {}, hostName: "", publicUrl: "http://[FD00::9]:3000" })).toEqual(["[fd00::9]"]);
    expect(devOrigins({ interfaces: {}, hostName: "", publicUrl: "not a url" })).toEqual([]);
  });

  it("takes a dotted host name as it is, and skips one that is no host name", () => {
    expect(devOrigins({ interfaces: {}, hostName: "Kitchen-PC.lan" })).toEqual(["kitchen-pc.lan"]);
    expect(devOrigins({ interfaces: {}, hostName: "a:b/c" })).toEqual([]);
  });

  it("lets Next serve the LAN address tickets print, by IPv4 and IPv6, and PUBLIC_URL; no other site", () => {
    const allowed = devOrigins({ interfaces, hostName: "pi", publicUrl: "https://queue.example.com" });
    const ticket = publicOrigin({ env: { NODE_ENV: "development", PORT: 3000 }, requestOrigin: "http://localhost:3000", interfaces });
    expect(ticket).toBe("http://192.168.1.23:3000");
    for (const page of [
      ticket,
      "http://10.0.0.5:3000",
      "http://[fd00::23]:3000",
      "http://127.0.0.1:3000",
      "http://pi.local:3000",
      "https://queue.example.com",
    ]) {
      expect(nextAllows(`${page}/demo/board`, allowed), page).toBe(true);
    }
    for (const page of ["http://192.168.1.24:3000", "https://evil.example", "http://queue.example.com.evil.example", "http://[fd00::24]:3000"]) {
      expect(nextAllows(page, allowed), page).toBe(false);
    }
    // Without the list, Next refuses the LAN address: the reason pages opened by it never hydrated.
    expect(nextAllows(ticket, [])).toBe(false);
  });

  it("reads this machine's interfaces by default", () => {
    expect(devOrigins({ hostName: "" })).toContain("127.0.0.1");
  });
});
