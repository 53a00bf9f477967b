import { describe, expect, it } from "vitest";
import { newPrinterSchema, printerForOrder, printerPatchSchema } from "@/lib/core/printing/printers";
import { printerHostProblem } from "@/lib/core/printing/printer-network";
import { DEFAULT_SERIES_ID } from "@/lib/core/series";

const SERIES_A = "6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f";
const SERIES_B = "0b7f5a3e-9c1d-4e2f-8a6b-5c4d3e2f1a0b";
const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.error?.issues ?? []).map((i) => i.message);

describe("newPrinterSchema", () => {
  it("fills port, paper, channels and series, leaves charset to the service, trims", () => {
    const r = newPrinterSchema.parse({ name: "  Counter  ", host: " 192.168.1.50 " });
    expect(r).toEqual({ name: "Counter", host: "192.168.1.50", port: 9100, paper: "80mm", channels: [], series: [] });
    expect("charset" in r).toBe(false);
  });

  it("accepts host names, IPv4 and IPv6 literals, the default series and series UUIDs", () => {
    for (const host of ["printer.local", "tm-t20", "192.168.1.50", "fd00::50", "fe80::1"])
      expect(newPrinterSchema.safeParse({ name: "P", host }).success, host).toBe(true);
    const r = newPrinterSchema.parse({
      name: "P",
      host: "p.lan",
      port: 9101,
      paper: "58mm",
      charset: "gb18030",
      channels: ["kiosk", "web"],
      series: [SERIES_A, DEFAULT_SERIES_ID],
    });
    expect(r).toMatchObject({ port: 9101, paper: "58mm", charset: "gb18030", channels: ["kiosk", "web"], series: [SERIES_A, "default"] });
  });

  it("refuses bad fields with words a manager can read", () => {
    expect(issues(newPrinterSchema.safeParse({ name: "", host: "p" }))).toContain("Name is required");
    expect(issues(newPrinterSchema.safeParse({ name: "x".repeat(61), host: "p" }))).toContain("Name must be at most 60 characters");
    expect(issues(newPrinterSchema.safeParse({ name: "a\u202eb", host: "p" }))[0]).toMatch(/control character|invisible/);
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", port: 0 }))).toContain("Port must be between 1 and 65535");
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", port: 65_536 }))).toContain("Port must be between 1 and 65535");
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", port: 91.5 }))).toContain("Port must be a whole number");
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", paper: "110mm" }))[0]).toMatch(/Paper must be one of 80mm, 58mm/);
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", charset: "utf8" }))[0]).toMatch(/latin, gb18030/);
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", channels: ["kiosk", "kiosk"] }))).toContain("A channel is listed twice");
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", channels: ["drive-thru"] }))[0]).toMatch(/Channels must be among kiosk/);
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", series: [SERIES_A, SERIES_A] }))).toContain("A series is listed twice");
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", series: ["not-a-uuid"] }))[0]).toMatch(/series ids/);
    const many = Array.from({ length: 21 }, (_, i) => `6f1c2b9e-3d4a-4c5b-9e8f-${String(i).padStart(12, "0")}`);
    expect(issues(newPrinterSchema.safeParse({ name: "P", host: "p", series: many }))).toContain("A printer serves at most 20 series");
    expect(newPrinterSchema.safeParse({ name: "P", host: "p", extra: 1 }).success).toBe(false);
  });
});

describe("printerHostProblem", () => {
  it("accepts names and addresses", () => {
    for (const h of ["printer", "printer.local", "tm-t20ii.kitchen.lan", "10.0.0.7", "2001:db8::7", "::ffff:192.168.1.5"])
      expect(printerHostProblem(h), h).toBeNull();
  });
  it("refuses schemes, ports, paths, brackets and malformed addresses, naming the problem", () => {
    expect(printerHostProblem("tcp://10.0.0.7")).toMatch(/without http:\/\/ or tcp:\/\//);
    expect(printerHostProblem("10.0.0.7:9100")).toMatch(/must not include a port/);
    expect(printerHostProblem("printer.local:9100")).toMatch(/must not include a port/);
    expect(printerHostProblem("10.0.0.7/print")).toMatch(/without a path/);
    expect(printerHostProblem("[fd00::1]")).toMatch(/without brackets/);
    expect(printerHostProblem("192.168.1.300")).toBe("192.168.1.300 is not a valid IPv4 address");
    expect(printerHostProblem("10.1")).toBe("10.1 is not a valid IPv4 address");
    expect(printerHostProblem("fd00:::1")).toMatch(/not a valid IPv6/);
    expect(printerHostProblem("-printer")).toMatch(/letters, digits and hyphens/);
    expect(printerHostProblem("my_printer")).toMatch(/letters, digits and hyphens/);
    expect(printerHostProblem("printer.123")).toMatch(/neither a host name nor an IP address/);
    expect(printerHostProblem("a".repeat(254))).toMatch(/at most 253/);
    expect(printerHostProblem("")).toBe("Host is required");
  });
});

describe("printerPatchSchema", () => {
  it("takes any one field, no defaults", () => {
    expect(printerPatchSchema.parse({ paper: "58mm" })).toEqual({ paper: "58mm" });
    expect(printerPatchSchema.parse({ charset: "latin" })).toEqual({ charset: "latin" });
  });
  it("refuses an empty patch, unknown fields and bad values", () => {
    expect(issues(printerPatchSchema.safeParse({}))).toContain("Change at least one field");
    expect(printerPatchSchema.safeParse({ colour: "red" }).success).toBe(false);
    expect(printerPatchSchema.safeParse({ host: "http://x" }).success).toBe(false);
  });
});

describe("printerForOrder", () => {
  const bar = { id: "p-bar", name: "Bar", channels: ["counter"], series: [] };
  const kitchen = { id: "p-kitchen", name: "kitchen", channels: ["kiosk"], series: [SERIES_A] };
  const zeta = { id: "p-zeta", name: "Zeta", channels: ["kiosk"], series: [SERIES_A, DEFAULT_SERIES_ID] };
  const loose = { id: "p-loose", name: "Aardvark", channels: [], series: [] };
  const all = [zeta, loose, kitchen, bar];

  it("the device's own choice wins when it is one of the printers", () => {
    expect(printerForOrder(all, { channel: "kiosk", seriesId: SERIES_A }, "p-bar")).toBe("p-bar");
    expect(printerForOrder(all, { channel: "kiosk", seriesId: null }, "p-loose")).toBe("p-loose");
  });
  it("ignores a device choice that names no printer of the list", () => {
    expect(printerForOrder(all, { channel: "counter", seriesId: SERIES_B }, "p-gone")).toBe("p-bar");
  });
  it("then the first printer by name (case aside) serving the order's series", () => {
    expect(printerForOrder(all, { channel: "counter", seriesId: SERIES_A })).toBe("p-kitchen");
  });
  it("an order of the default series (seriesId null) goes to a printer naming the default series", () => {
    expect(printerForOrder(all, { channel: "counter", seriesId: null })).toBe("p-zeta");
  });
  it("then the first printer by name serving its channel", () => {
    expect(printerForOrder(all, { channel: "kiosk", seriesId: SERIES_B })).toBe("p-kitchen");
    expect(printerForOrder([bar, loose], { channel: "counter", seriesId: SERIES_B })).toBe("p-bar");
  });
  it("else none; a printer without channels and series never prints on its own", () => {
    expect(printerForOrder(all, { channel: "web", seriesId: SERIES_B })).toBeNull();
    expect(printerForOrder([loose], { channel: "kiosk", seriesId: null })).toBeNull();
    expect(printerForOrder([], { channel: "kiosk", seriesId: null }, "p-bar")).toBeNull();
  });
});
