import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { boxOrigins, LISTED_RESTAURANTS, startBanner, type StartBannerInput } from "@/lib/server/ops/start-banner";

const iface = (address: string, family: "IPv4" | "IPv6", internal: boolean) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null }) as unknown as NetworkInterfaceInfo;

const interfaces = {
  lo: [iface("127.0.0.1", "IPv4", true), iface("::1", "IPv6", true)],
  wlan0: [iface("fe80::1", "IPv6", false), iface("192.168.1.23", "IPv4", false), iface("fd00::23", "IPv6", false)],
  eth1: [iface("10.0.0.5", "IPv4", false)],
};

const base: StartBannerInput = {
  mode: "one box",
  database: "embedded PostgreSQL in /opt/nextup/.data/postgres (port 54329); the data folder is /opt/nextup/.data",
  redis: "redis://127.0.0.1:6379",
  secret: "secret kept in /opt/nextup/.data/session-secret (owner only)",
  backups: "every 60 min into /opt/nextup/.data/backups, the last 48 kept (copy them off this machine)",
  tickets: "QR codes link to the address the kiosk uses",
  origins: boxOrigins("0.0.0.0", 3000, interfaces),
  restaurants: [],
  total: 0,
  createCommand: 'npm run org -- create my-restaurant --name "My Restaurant" --timezone Europe/Berlin',
  demoCodesWork: false,
};

describe("the addresses of the box", () => {
  it("lists every IPv4 address for HOST 0.0.0.0, the network's first and localhost last", () => {
    expect(boxOrigins("0.0.0.0", 3000, interfaces)).toEqual([
      { origin: "http://192.168.1.23:3000", local: false },
      { origin: "http://10.0.0.5:3000", local: false },
      { origin: "http://localhost:3000", local: true },
    ]);
  });

  it("adds IPv6 addresses (not link-local) for HOST ::, and names HOST alone otherwise", () => {
    expect(boxOrigins("::", 80, interfaces).map((o) => o.origin)).toEqual(["http://192.168.1.23", "http://[fd00::23]", "http://10.0.0.5", "http://localhost"]);
    expect(boxOrigins("192.168.1.23", 3000, interfaces)).toEqual([{ origin: "http://192.168.1.23:3000", local: false }]);
    expect(boxOrigins("127.0.0.1", 3000, interfaces)).toEqual([{ origin: "http://127.0.0.1:3000", local: true }]);
  });
});

describe("the start banner", () => {
  it("says the mode and where the data lives, and with no restaurant how to create one", () => {
    const text = startBanner(base);
    expect(text).toContain("Nextup in production on one box");
    expect(text).toContain("/opt/nextup/.data/postgres");
    expect(text).toContain("http://192.168.1.23:3000   http://10.0.0.5:3000   http://localhost:3000 (this machine only)");
    expect(text).toContain("No restaurant yet.");
    expect(text).toContain(base.createCommand);
    expect(text).not.toContain("Warning");
  });

  it("lists every restaurant's five screens at every address", () => {
    const text = startBanner({
      ...base,
      restaurants: [
        { slug: "noodles", name: "Noodle Bar" },
        { slug: "dumplings", name: "Dumpling House" },
      ],
      total: 2,
    });
    expect(text).not.toContain("No restaurant yet");
    for (const slug of ["noodles", "dumplings"])
      for (const screen of ["board", "kiosk", "kitchen", "manager", "sign-in"])
        for (const origin of ["http://192.168.1.23:3000", "http://10.0.0.5:3000", "http://localhost:3000"])
          expect(text).toContain(`${origin}/${slug}/${screen}`);
    expect(text).toMatch(/"Noodle Bar" \(\/noodles\)\n {4}board {4}http:\/\/192\.168\.1\.23:3000\/noodles\/board {2}http:\/\/10\.0\.0\.5:3000\/noodles\/board/);
    expect(text).toMatch(/ {4}console {2}http:\/\/192\.168\.1\.23:3000\/noodles\/manager/);
  });

  it("says how many more there are beyond the ones listed, and warns of a demo still signing in with the README's codes", () => {
    const restaurants = Array.from({ length: LISTED_RESTAURANTS }, (_, i) => ({ slug: `r${i}`, name: `R ${i}` }));
    const text = startBanner({ ...base, restaurants, total: LISTED_RESTAURANTS + 7, demoCodesWork: true });
    expect(text).toContain("…and 7 more restaurants");
    expect(text).toContain("Warning: the demo restaurant (/demo) still signs in with the codes printed in the README");
  });

  it("says so in development", () => {
    expect(startBanner({ ...base, mode: "development" })).toContain("Nextup in development");
  });
});
