/**
 * What a ticket says (lib/core/printing/print-content.ts) and the printer service's checks
 * (lib/core/printing/printer-service.ts) on an in-memory store: the address policy at
 * creation after DNS, the series a restaurant has, the default character set, where an
 * order's ticket goes.
 */
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { defaultCharset, printLocale, testPageContent, ticketContent } from "@/lib/core/printing/print-content";
import { PrinterService } from "@/lib/core/printing/printer-service";
import type { AddressClaim, PrinterStore, PrinterView, PrintTarget, WaitingJob } from "@/lib/core/ports";
import type { PrinterFields } from "@/lib/core/printing/printers";
import type { Tenant } from "@/lib/core/tenants";
import { DEFAULT_SERIES } from "@/lib/core/series";

const target: PrintTarget = {
  id: "p1",
  tenantId: "t1",
  name: "Counter",
  host: "192.168.1.50",
  port: 9100,
  paper: "58mm",
  charset: "gb18030",
  channels: [],
  series: [],
  createdAt: new Date(0),
  restaurant: "面馆",
  timeZone: "Asia/Shanghai",
  currency: "CNY",
  language: null,
  giveUpMinutes: 10,
};

const job = (over: Partial<WaitingJob> = {}): WaitingJob => ({
  id: "j1",
  kind: "ticket",
  stationId: null,
  state: "claimed",
  attempts: 0,
  createdAt: new Date("2030-05-01T11:42:00Z"),
  url: "https://q.example/noodles/o/1",
  order: {
    number: 7,
    prefix: "K",
    items: [
      { name: "牛肉面", qty: 2, priceCents: 1800 },
      { name: "Tea", qty: 1 },
    ],
    note: "不要香菜",
    createdAt: new Date("2030-05-01T11:42:00Z"),
    channel: "kiosk",
    service: null,
    stations: [],
  },
  ...over,
});

describe("what a ticket says", () => {
  it("the displayed number, the items, the total in the restaurant's currency, the local time and the URL", () => {
    const t = ticketContent(target, job())!;
    expect(t).toMatchObject({
      restaurant: "面馆",
      number: "K7",
      items: [
        { name: "牛肉面", quantity: 2, note: null, soldOut: false },
        { name: "Tea", quantity: 1, note: null, soldOut: false, price: null },
      ],
      service: null,
      note: "不要香菜",
      url: "https://q.example/noodles/o/1",
      labels: { title: "您的号码" },
    });
    expect(t.total).toMatch(/36\.00/);
    // A line comes to its unit price times its quantity.
    expect(t.items[0]!.price).toMatch(/36\.00/);
    // 11:42 UTC is 19:42 in Shanghai.
    expect(t.takenAt).toContain("19:42");
  });

  it("a line's options, note and sold-out flag, its price with the options, and the service (issue #41)", () => {
    const order = {
      ...job().order!,
      service: "takeAway" as const,
      items: [
        {
          name: "Beef noodles",
          qty: 2,
          priceCents: 1450,
          options: [
            { group: "Size", name: "Large", priceCents: 200 },
            { group: "Spice", name: "Extra spicy", priceCents: 0 },
          ],
          note: "no coriander",
        },
        { name: "Pork buns", qty: 1, priceCents: 450, soldOut: true as const },
      ],
    };
    const t = ticketContent({ ...target, language: "en", currency: "EUR" }, job({ order }))!;
    expect(t.items).toEqual([
      { name: "Beef noodles · Large · Extra spicy", quantity: 2, note: "no coriander", soldOut: false, price: "€29.00" },
      { name: "Pork buns", quantity: 1, note: null, soldOut: true, price: "€4.50" },
    ]);
    expect(t.service).toBe("TAKE AWAY");
    expect(t.total).toBe("€33.50");
    expect(ticketContent(target, job({ order: { ...order, service: "eatIn" } }))!.service).toBe("堂食");
  });

  it("no total when nothing is priced; nothing to print for an order that is gone", () => {
    expect(ticketContent({ ...target, language: "en" }, job({ order: { ...job().order!, items: [{ name: "Tea", qty: 1 }] } }))!.total).toBeNull();
    expect(ticketContent(target, job({ order: null }))).toBeNull();
  });

  it("the language: the restaurant's, else Chinese on a GB18030 printer, else English", () => {
    expect(printLocale({ language: "en", charset: "gb18030" })).toBe("en");
    expect(printLocale({ language: null, charset: "gb18030" })).toBe("zh-CN");
    expect(printLocale({ language: null, charset: "latin" })).toBe("en");
    expect(defaultCharset("zh-CN")).toBe("gb18030");
    expect(defaultCharset("en")).toBe("latin");
    expect(defaultCharset(null)).toBe("latin");
  });

  it("a test page names the printer and its settings", () => {
    const page = testPageContent(target, new Date("2030-05-01T11:42:00Z"));
    expect(page).toMatchObject({ printerName: "Counter", paper: "58mm", charset: "gb18030", restaurant: "面馆" });
    expect(page.lines.join("\n")).toContain("58");
  });
});

class Store implements PrinterStore {
  made: PrinterFields[] = [];
  claims: (string | null)[] = [];
  list = async () => [];
  get = async () => null;
  create = async (_t: string, fields: PrinterFields, _audit: unknown, address: AddressClaim): Promise<PrinterView> => {
    // The unique index's part: a key another printer holds is refused.
    if (address.addressKey !== null && this.claims.includes(address.addressKey)) throw address.addressTaken();
    this.claims.push(address.addressKey);
    this.made.push(fields);
    return { ...fields, id: "p", createdAt: new Date(0), status: "unknown", checkedAt: null, lastError: null, queued: 0 };
  };
  update = async () => null;
  remove = async () => null;
  enqueue = async () => {
    throw new Error("not used");
  };
  jobs = async () => [];
}

function service(addresses: Record<string, string[]>, opts: { networks?: string[]; sharedAddresses?: boolean } = {}) {
  const store = new Store();
  const forgot: string[] = [];
  const lookups: string[] = [];
  const svc = new PrinterService({
    store,
    routes: { routes: async () => [{ id: "p-kiosk", name: "Kiosk", channels: ["kiosk"], series: [] }] },
    resolve: async (host) => {
      lookups.push(host);
      const found = addresses[host];
      if (!found) throw new Error("ENOTFOUND");
      return found;
    },
    policy: { networks: opts.networks ?? ["192.168.1.0/24"], ports: [9100] },
    sharedAddresses: opts.sharedAddresses ?? false,
    invalidate: { printersChanged: async (id) => void forgot.push(id) },
    events: { printersChanged: () => {} },
    log: { info: () => {} },
  });
  return { store, forgot, lookups, svc };
}

const tenant = (language: Tenant["floor"]["language"]): Tenant => ({
  id: "t1",
  slug: "noodles",
  name: "Noodles",
  timeZone: "UTC",
  dayStartMinutes: 240,
  floor: {
    language,
    readyClearMinutes: 10,
    ageWarnMinutes: 10,
    ageLateMinutes: 20,
    currency: null,
    kioskNumberOnly: false,
    printGiveUpMinutes: 10,
    readyWhen: "parts",
    askService: "off",
    defaultService: "eatIn",
    soldOutAcceptedFrom: [],
  },
  schedule: [],
  scheduleChangedAt: null,
  series: [DEFAULT_SERIES],
});

const refusal = async (p: Promise<unknown>): Promise<AppError> => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
};

describe("PrinterService", () => {
  it("adds a printer in the operator's network, with the restaurant's character set, and tells every node", async () => {
    const { store, forgot, svc } = service({ "tm-t20.lan": ["192.168.1.50"] });
    await svc.create(tenant("zh-CN"), { name: "Counter", host: "tm-t20.lan", series: ["default"] }, "Manager (staff)");
    expect(store.made).toEqual([{ name: "Counter", host: "tm-t20.lan", port: 9100, paper: "80mm", charset: "gb18030", channels: [], series: ["default"] }]);
    expect(forgot).toEqual(["t1"]);
  });

  it("refuses a name resolving outside PRINTER_NETWORKS (any of its addresses), a port not allowed, an unknown series, a name that does not resolve", async () => {
    const { store, svc } = service({ "two-faced.lan": ["192.168.1.50", "10.0.0.1"] });
    const t = tenant(null);
    expect((await refusal(svc.create(t, { name: "A", host: "two-faced.lan" }, "m"))).message).toMatch(
      /two-faced\.lan resolves to 10\.0\.0\.1: .*not in PRINTER_NETWORKS/,
    );
    const port = await refusal(svc.create(t, { name: "B", host: "192.168.1.60", port: 22 }, "m"));
    expect(port.message).toMatch(/port 22 is not in PRINTER_PORTS/);
    expect(port.details).toMatchObject({ fields: [{ path: "port" }] });
    expect((await refusal(svc.create(t, { name: "C", host: "192.168.1.60", series: ["3f1c2d9e-0000-4000-8000-000000000000"] }, "m"))).message).toMatch(
      /no series/,
    );
    expect((await refusal(svc.create(t, { name: "D", host: "nowhere.lan" }, "m"))).message).toMatch(/does not resolve/);
    expect(store.made).toEqual([]);
  });

  it("with printing off, nothing is resolved and the answer is one sentence", async () => {
    const { lookups, svc } = service({ vm: ["127.0.0.1"] }, { networks: [] });
    const e = await refusal(svc.create(tenant(null), { name: "A", host: "vm" }, "m"));
    expect(lookups).toEqual([]);
    expect(e.userMessage).toBe("printing to network printers is off on this server");
    expect(e.details).toMatchObject({ refusal: "off" });
  });

  it("no answer names a resolved address: a name resolving outside the networks, a name that does not resolve, read the same", async () => {
    const { lookups, svc } = service({ "two-faced.lan": ["192.168.1.50", "10.0.0.1"] });
    const outside = await refusal(svc.create(tenant(null), { name: "A", host: "two-faced.lan" }, "m"));
    const nowhere = await refusal(svc.create(tenant(null), { name: "B", host: "nowhere.lan" }, "m"));
    expect(lookups).toEqual(["two-faced.lan", "nowhere.lan"]);
    for (const e of [outside, nowhere]) {
      expect(e.userMessage).toBe("this printer address is not allowed");
      expect(JSON.stringify({ m: e.userMessage, d: e.details })).not.toMatch(/10\.0\.0\.1|192\.168/);
    }
  });

  it("an address (host:port, canonical) is one printer's unless addresses are shared; refused in the sentence of any refused address", async () => {
    const { store, svc } = service({});
    await svc.create(tenant(null), { name: "A", host: "192.168.1.50" }, "m");
    const taken = await refusal(svc.create(tenant(null), { name: "B", host: "::ffff:192.168.1.50" }, "m"));
    expect(taken.userMessage).toBe("this printer address is not allowed");
    expect(taken.reason).toBe("printerRefused");
    expect(store.claims).toEqual(["192.168.1.50:9100"]);
    const shared = service({}, { sharedAddresses: true });
    await shared.svc.create(tenant(null), { name: "A", host: "192.168.1.50" }, "m");
    await shared.svc.create(tenant(null), { name: "B", host: "192.168.1.50" }, "m");
    expect(shared.store.claims).toEqual([null, null]);
  });

  it("an order's ticket: the device's printer, else the one of its channel, else none; print nowhere without printers", async () => {
    const { svc } = service({});
    const t = tenant(null);
    expect(await svc.printerFor(t, { channel: "kiosk", seriesId: null }, null)).toEqual({ printerId: "p-kiosk" });
    expect(await svc.printerFor(t, { channel: "api", seriesId: null }, null)).toBeNull();
    expect(await svc.printerFor(t, { channel: "api", seriesId: null }, "p-kiosk")).toEqual({ printerId: "p-kiosk" });
    expect(await svc.printerFor(t, { channel: "api", seriesId: null }, "gone")).toBeNull();
  });
});
