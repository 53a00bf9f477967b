import { describe, expect, it } from "vitest";
import {
  parsePrinterNetworks,
  parsePrinterPorts,
  printerAddressRefusal,
  printerDestination,
  type PrinterNetworkPolicy,
} from "@/lib/core/printing/printer-network";

const policy = (networks: string[], ports: PrinterNetworkPolicy["ports"] = [9100]): PrinterNetworkPolicy => ({ networks, ports });

describe("parsePrinterNetworks", () => {
  it("unset or empty: no networks (printing to the network is off)", () => {
    expect(parsePrinterNetworks(undefined)).toEqual({ networks: [] });
    expect(parsePrinterNetworks(" , ")).toEqual({ networks: [] });
  });
  it("reads CIDRs and single addresses, normalised and without duplicates", () => {
    expect(parsePrinterNetworks("192.168.0.0/16, 10.0.0.0/8,10.1.2.3, fd00::/8, FD00:0::1,192.168.0.0/16")).toEqual({
      networks: ["192.168.0.0/16", "10.0.0.0/8", "10.1.2.3/32", "fd00::/8", "fd00::1/128"],
    });
  });
  it("names the bad entry", () => {
    expect(parsePrinterNetworks("192.168.0.0/16,printer.lan")).toEqual({ error: expect.stringContaining('"printer.lan" is not an address or network') });
    expect(parsePrinterNetworks("10.0.0.0/33")).toEqual({ error: expect.stringContaining('"10.0.0.0/33"') });
    expect(parsePrinterNetworks("10.1")).toEqual({ error: expect.stringContaining('"10.1"') });
    expect(parsePrinterNetworks("192.168.1.7/24")).toEqual({ error: 'PRINTER_NETWORKS: "192.168.1.7/24" has host bits set: did you mean 192.168.1.0/24?' });
    expect(parsePrinterNetworks("::ffff:10.0.0.0/104")).toEqual({ error: expect.stringContaining("write it as IPv4") });
  });
});

describe("parsePrinterPorts", () => {
  it("defaults to 9100", () => {
    expect(parsePrinterPorts(undefined)).toEqual({ ports: [9100] });
    expect(parsePrinterPorts("")).toEqual({ ports: [9100] });
  });
  it("reads ports and ranges", () => {
    expect(parsePrinterPorts("9100, 9101-9103,515")).toEqual({ ports: [9100, [9101, 9103], 515] });
    expect(parsePrinterPorts("9100-9100")).toEqual({ ports: [9100] });
  });
  it("names the bad entry", () => {
    expect(parsePrinterPorts("9100,http")).toEqual({ error: expect.stringContaining('"http" is not a port') });
    expect(parsePrinterPorts("0")).toEqual({ error: expect.stringContaining('"0"') });
    expect(parsePrinterPorts("65536")).toEqual({ error: expect.stringContaining('"65536"') });
    expect(parsePrinterPorts("9103-9100")).toEqual({ error: expect.stringContaining("ends before it starts") });
  });
});

describe("printerAddressRefusal", () => {
  const lan = policy(["192.168.0.0/16"]);

  it("allows an address inside a named network on a listed port", () => {
    expect(printerAddressRefusal("192.168.1.50", 9100, lan)).toBeNull();
    expect(printerAddressRefusal("10.0.0.9", 9102, policy(["10.0.0.0/8"], [[9100, 9103]]))).toBeNull();
    expect(printerAddressRefusal("fd00::50", 9100, policy(["fd00::/8"]))).toBeNull();
    expect(printerAddressRefusal("100.64.1.2", 9100, policy(["100.64.0.0/10"]))).toBeNull(); // CGNAT, a VPN's range
  });

  it("refuses everything when no network is named", () => {
    expect(printerAddressRefusal("192.168.1.50", 9100, policy([]))).toMatch(/printing to network printers is off: set PRINTER_NETWORKS/);
  });

  it("refuses an address outside the named networks, naming it and the env var", () => {
    expect(printerAddressRefusal("10.1.2.3", 9100, lan)).toBe("10.1.2.3 is not in PRINTER_NETWORKS (192.168.0.0/16)");
    expect(printerAddressRefusal("8.8.8.8", 9100, lan)).toBe("8.8.8.8 is not in PRINTER_NETWORKS (192.168.0.0/16)");
    expect(printerAddressRefusal("fd00::1", 9100, lan)).toBe("fd00::1 is not in PRINTER_NETWORKS (192.168.0.0/16)");
  });

  it("refuses a port not listed", () => {
    expect(printerAddressRefusal("192.168.1.50", 22, lan)).toBe("port 22 is not in PRINTER_PORTS (9100)");
    expect(printerAddressRefusal("192.168.1.50", 9104, policy(["192.168.0.0/16"], [9100, [9101, 9103]]))).toBe(
      "port 9104 is not in PRINTER_PORTS (9100, 9101-9103)",
    );
  });

  it("treats IPv4-mapped IPv6 as IPv4", () => {
    expect(printerAddressRefusal("::ffff:192.168.1.50", 9100, lan)).toBeNull();
    expect(printerAddressRefusal("::ffff:10.1.2.3", 9100, lan)).toMatch(/^::ffff:10\.1\.2\.3 is not in PRINTER_NETWORKS/);
    expect(printerAddressRefusal("::ffff:127.0.0.1", 9100, policy(["0.0.0.0/1"]))).toMatch(/loopback/);
  });

  it("loopback only where a network named wholly inside it", () => {
    expect(printerAddressRefusal("127.0.0.1", 9100, lan)).toBe(
      "127.0.0.1 is a loopback address: name it in PRINTER_NETWORKS (127.0.0.1/32) to use a printer on this host",
    );
    expect(printerAddressRefusal("127.0.0.1", 9100, policy(["0.0.0.0/0"]))).toMatch(/loopback/);
    expect(printerAddressRefusal("127.0.0.1", 9100, policy(["127.0.0.1/32"]))).toBeNull();
    expect(printerAddressRefusal("127.0.0.1", 9100, policy(["127.0.0.0/8"]))).toBeNull();
    expect(printerAddressRefusal("127.0.0.2", 9100, policy(["127.0.0.1/32"]))).toMatch(/loopback/);
    expect(printerAddressRefusal("::1", 9100, policy(["::/0"]))).toMatch(/^::1 is a loopback address: .*\(::1\/128\)/);
    expect(printerAddressRefusal("::1", 9100, policy(["::1/128"]))).toBeNull();
  });

  it("link-local only where a network named wholly inside it", () => {
    expect(printerAddressRefusal("169.254.7.20", 9100, policy(["0.0.0.0/0"]))).toMatch(/^169\.254\.7\.20 is a link-local address: .*\(169\.254\.7\.20\/32\)/);
    expect(printerAddressRefusal("169.254.7.20", 9100, policy(["169.254.7.0/24"]))).toBeNull();
    expect(printerAddressRefusal("fe80::1", 9100, policy(["::/0"]))).toMatch(/link-local/);
    expect(printerAddressRefusal("fe80::1", 9100, policy(["fe80::/64"]))).toBeNull();
  });

  it("cloud metadata only where named alone, not by a link-local or wider network", () => {
    expect(printerAddressRefusal("169.254.169.254", 9100, policy(["169.254.0.0/16"]))).toMatch(/^169\.254\.169\.254 is a cloud metadata address/);
    expect(printerAddressRefusal("169.254.169.254", 9100, policy(["0.0.0.0/0"]))).toMatch(/cloud metadata/);
    expect(printerAddressRefusal("100.100.100.200", 9100, policy(["100.64.0.0/10"]))).toMatch(/cloud metadata/);
    expect(printerAddressRefusal("168.63.129.16", 9100, policy(["168.63.0.0/16"]))).toMatch(/cloud metadata/);
    expect(printerAddressRefusal("fd00:ec2::254", 9100, policy(["fd00::/8"]))).toMatch(/cloud metadata/);
    expect(printerAddressRefusal("169.254.169.254", 9100, policy(["169.254.169.254/32"]))).toBeNull();
  });

  it("never unspecified, multicast or broadcast, whatever is named", () => {
    expect(printerAddressRefusal("0.0.0.0", 9100, policy(["0.0.0.0/0"]))).toBe("0.0.0.0 is the unspecified address: it cannot be a printer");
    expect(printerAddressRefusal("::", 9100, policy(["::/0"]))).toMatch(/unspecified/);
    expect(printerAddressRefusal("0.0.0.0", 9100, policy(["0.0.0.0/32"]))).toMatch(/unspecified/);
    expect(printerAddressRefusal("224.0.0.1", 9100, policy(["224.0.0.0/4"]))).toMatch(/multicast/);
    expect(printerAddressRefusal("ff02::1", 9100, policy(["ff00::/8"]))).toMatch(/multicast/);
    expect(printerAddressRefusal("255.255.255.255", 9100, policy(["255.255.255.255/32"]))).toMatch(/broadcast/);
    expect(printerAddressRefusal("192.168.1.255", 9100, policy(["192.168.1.0/24"]))).toBe(
      "192.168.1.255 is the broadcast address of 192.168.1.0/24: it cannot be a printer",
    );
    expect(printerAddressRefusal("192.168.1.255", 9100, policy(["192.168.0.0/16"]))).toBeNull(); // a host of the /16
  });

  it("refuses what is not an IP address", () => {
    expect(printerAddressRefusal("printer.lan", 9100, lan)).toBe("printer.lan is not an IP address");
  });
});

describe("printerDestination: the address connected to is the one checked", () => {
  const lan = policy(["127.0.0.1/32", "192.168.1.0/24"]);
  const none = async (): Promise<string[]> => [];
  // [what the manager types, the address the socket then goes to, or null: refused]
  const table: [string, string | null][] = [
    ["127.0.0.1", "127.0.0.1"],
    ["192.168.1.50", "192.168.1.50"],
    // ipaddr.js reads "::a.b.c.d" as a.b.c.d, the socket as ::a.b.c.d (IPv4-compatible, via the IPv6 route)
    ["::127.0.0.1", null],
    ["::192.168.1.50", null],
    ["0:0:0:0:0:0:127.0.0.1", null],
    ["0:0:0:0:0:ffff:192.168.1.50", null],
    ["::7f00:1", null],
    ["64:ff9b::7f00:1", null],
    ["64:ff9b::127.0.0.1", null],
    ["2002:7f00:1::", null],
    // IPv4-mapped: checked as IPv4, and connected to as that IPv4 address
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:192.168.1.50", "192.168.1.50"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["::ffff:c0a8:132", "192.168.1.50"],
  ];
  it.each(table)("%s → %s", async (host, connected) => {
    const found = await printerDestination({ host, port: 9100 }, lan, none);
    if (connected === null) expect(found).toMatchObject({ code: "notAllowed", field: "host" });
    else expect(found).toEqual({ address: connected });
  });

  it("the same rule for what a name resolves to", async () => {
    expect(await printerDestination({ host: "p.lan", port: 9100 }, lan, async () => ["::127.0.0.1"])).toMatchObject({ code: "notAllowed" });
    expect(await printerDestination({ host: "p.lan", port: 9100 }, lan, async () => ["::ffff:192.168.1.50"])).toEqual({ address: "192.168.1.50" });
  });

  it("printing off: refused before any lookup", async () => {
    let lookups = 0;
    const counting = async () => {
      lookups += 1;
      return ["192.168.1.50"];
    };
    expect(await printerDestination({ host: "vm", port: 9100 }, policy([]), counting)).toMatchObject({ code: "off" });
    expect(await printerDestination({ host: "vm", port: 22 }, policy([]), counting)).toMatchObject({ code: "off" });
    expect(lookups).toBe(0);
  });
});
