import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { lanAddress, publicOrigin } from "@/lib/server/http/public-origin.server";

const iface = (address: string, family: "IPv4" | "IPv6", internal: boolean) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null }) as unknown as NetworkInterfaceInfo;

const interfaces = {
  lo: [iface("127.0.0.1", "IPv4", true), iface("::1", "IPv6", true)],
  wlan0: [iface("fe80::1", "IPv6", false), iface("192.168.1.23", "IPv4", false)],
  eth1: [iface("10.0.0.5", "IPv4", false)],
};

describe("the origin printed on tickets", () => {
  it("takes PUBLIC_URL first, in any environment", () => {
    for (const NODE_ENV of ["development", "production"] as const) {
      expect(publicOrigin({ env: { PUBLIC_URL: "https://queue.example.com", NODE_ENV, PORT: 3000 }, requestOrigin: "http://localhost:3000", interfaces })).toBe(
        "https://queue.example.com",
      );
    }
  });

  it("uses the LAN address and the server's port in development, so a phone on the Wi-Fi can open it", () => {
    expect(publicOrigin({ env: { NODE_ENV: "development", PORT: 3000 }, requestOrigin: "http://localhost:3000", interfaces })).toBe("http://192.168.1.23:3000");
    expect(publicOrigin({ env: { NODE_ENV: "development", PORT: 0 }, requestOrigin: "http://localhost:4123", interfaces })).toBe("http://192.168.1.23:4123");
    expect(publicOrigin({ env: { NODE_ENV: "development", PORT: 80 }, requestOrigin: "http://localhost", interfaces })).toBe("http://192.168.1.23");
  });

  it("falls back to the request's origin in development without a network", () => {
    expect(publicOrigin({ env: { NODE_ENV: "development", PORT: 3000 }, requestOrigin: "http://localhost:3000", interfaces: { lo: interfaces.lo } })).toBe(
      "http://localhost:3000",
    );
  });

  it("uses the request's origin in production (the proxy's host), never the LAN address", () => {
    expect(publicOrigin({ env: { NODE_ENV: "production", PORT: 3000 }, requestOrigin: "https://q.example.org", interfaces })).toBe("https://q.example.org");
  });

  it("on one box: the address the kiosk used, but the LAN address when the kiosk runs on the box itself (decision 0047)", () => {
    const env = { NODE_ENV: "production", PORT: 3000, EMBEDDED: true };
    expect(publicOrigin({ env, requestOrigin: "http://10.0.0.5:3000", interfaces })).toBe("http://10.0.0.5:3000");
    expect(publicOrigin({ env, requestOrigin: "http://shop-box.local:3000", interfaces })).toBe("http://shop-box.local:3000");
    for (const local of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])
      expect(publicOrigin({ env, requestOrigin: local, interfaces })).toBe("http://192.168.1.23:3000");
    // With DATABASE_URL, production is as before: the request's origin, loopback or not.
    expect(publicOrigin({ env: { ...env, EMBEDDED: false }, requestOrigin: "http://localhost:3000", interfaces })).toBe("http://localhost:3000");
  });

  it("finds the first non-internal IPv4 address", () => {
    expect(lanAddress(interfaces)).toBe("192.168.1.23");
    expect(lanAddress({ lo: interfaces.lo })).toBeNull();
    expect(lanAddress({})).toBeNull();
  });
});
