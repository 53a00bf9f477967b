/**
 * The TCP transport against a printer stand-in on real sockets: status in each mode, a
 * switched-off printer, a ticket delivered and decoded, a restart on the same port, and the
 * PRINTER_NETWORKS/PRINTER_PORTS checks on resolved addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusFromReplies } from "@/lib/core/printing/printer-status";
import { ticketLabels } from "@/lib/core/printing/ticket";
import { PrinterError, queryStatus, resolvePrinter, sendToPrinter } from "@/lib/adapters/printers/tcp-printer.server";
import { ticketBytes } from "@/lib/adapters/printers/escpos.server";
import { decodeEscPos } from "../support/escpos-decode";
import { PrinterStandIn, startPrinterStandIn } from "../support/printer-stand-in";

let printer: PrinterStandIn;
/** The stand-in's port: the same after every stop() and start(). */
let port: number;
beforeAll(async () => {
  printer = await startPrinterStandIn();
  port = printer.address.port;
});
afterAll(async () => {
  await printer.stop();
});

const host = "127.0.0.1";

const offline = async (p: Promise<unknown>): Promise<PrinterError> => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PrinterError);
  expect((e as PrinterError).kind).toBe("offline");
  return e as PrinterError;
};

describe("queryStatus", () => {
  it("reads ok, paperOut and coverOpen from the stand-in's replies", async () => {
    for (const [mode, expected] of [
      ["online", "ok"],
      ["paperOut", "paperOut"],
      ["coverOpen", "coverOpen"],
    ] as const) {
      printer.mode = mode;
      const before = printer.statusQueries();
      const replies = await queryStatus(host, port);
      expect(statusFromReplies(replies), mode).toBe(expected);
      expect(printer.statusQueries() - before).toBe(3);
    }
    printer.mode = "online";
  });

  it("a stopped printer is offline, refused (not timed out)", async () => {
    await printer.stop();
    try {
      const e = await offline(queryStatus(host, port));
      expect(e.message).toMatch(/connection refused/);
      await offline(sendToPrinter(host, port, Buffer.from("x")));
    } finally {
      await printer.start();
    }
  });

  it("a printer that never answers reads unknown after the reply timeouts", async () => {
    const { createServer } = await import("node:net");
    // Reads (and so sees the client's close) but never answers, like an adapter without status support.
    const silent = createServer((s) => s.on("error", () => {}).resume());
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const silentPort = (silent.address() as { port: number }).port;
      const started = Date.now();
      const replies = await queryStatus(host, silentPort, { replyTimeoutMs: 150 });
      expect(replies).toEqual({ printer: undefined, offline: undefined, paper: undefined });
      expect(statusFromReplies(replies)).toBe("unknown");
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      await new Promise((r) => silent.close(r));
    }
  });
});

describe("sendToPrinter", () => {
  const ticket = {
    restaurant: "Alpha Noodles",
    number: "A-042",
    items: [{ name: "红烧牛肉面", quantity: 2, note: null, soldOut: false, price: null }],
    service: null,
    note: "不要香菜",
    takenAt: "12:04",
    total: "¥36.00",
    url: "https://q.example.com/alpha/o/42",
    labels: ticketLabels("zh-CN"),
  };

  it("delivers the bytes, which the stand-in records as one job that decodes to the ticket", async () => {
    const bytes = ticketBytes(ticket, { paper: "80mm", charset: "gb18030" });
    const before = printer.jobs().length;
    await sendToPrinter(host, port, bytes);
    const jobs = await printer.waitForJobs(before + 1);
    expect(jobs[before]!.equals(bytes)).toBe(true);
    const out = decodeEscPos(jobs[before]!, "gb18030");
    expect(out.lines).toContain("2 × 红烧牛肉面");
    expect(out.qr).toEqual(["https://q.example.com/alpha/o/42"]);
    expect(out.cuts).toBe(1);
  });

  it("status requests in the middle of a job are answered and kept out of it", async () => {
    const before = printer.jobs().length;
    const replies = await new Promise<number[]>((resolve, reject) => {
      void import("node:net").then(({ connect }) => {
        const s = connect(port, host, () => {
          s.write(Buffer.from("AB\x10"));
          setTimeout(() => s.write(Buffer.from("\x04\x04CD")), 20);
          setTimeout(() => s.end(), 60);
        });
        const got: number[] = [];
        s.on("data", (d: Buffer) => got.push(...d));
        s.on("close", () => resolve(got));
        s.on("error", reject);
      });
    });
    expect(replies).toEqual([0x12]);
    const jobs = await printer.waitForJobs(before + 1);
    expect(jobs[before]!.toString("latin1")).toBe("ABCD");
  });

  it("works again after the printer was switched off and on (same port)", async () => {
    const samePort = port;
    await printer.stop();
    await offline(sendToPrinter(host, samePort, Buffer.from("lost")));
    await printer.start();
    expect(printer.address.port).toBe(samePort);
    const before = printer.jobs().length;
    await sendToPrinter(host, samePort, Buffer.from("hello printer\n"));
    const jobs = await printer.waitForJobs(before + 1);
    expect(jobs[before]!.toString("latin1")).toBe("hello printer\n");
    expect(statusFromReplies(await queryStatus(host, samePort))).toBe("ok");
  });
});

describe("resolvePrinter", () => {
  const lan = { networks: ["192.168.0.0/16"], ports: [9100] };

  it("refuses 127.0.0.1 unless it is named", async () => {
    const e = await resolvePrinter({ host: "127.0.0.1", port: 9100 }, lan).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(PrinterError);
    expect((e as PrinterError).kind).toBe("refused");
    expect((e as PrinterError).message).toMatch(/127\.0\.0\.1 is a loopback address: name it in PRINTER_NETWORKS \(127\.0\.0\.1\/32\)/);
    await expect(resolvePrinter({ host: "127.0.0.1", port: 9100 }, { networks: ["127.0.0.1/32"], ports: [9100] })).resolves.toBe("127.0.0.1");
  });

  it("refuses a port not listed", async () => {
    const e = await resolvePrinter({ host: "127.0.0.1", port: 22 }, { networks: ["127.0.0.1/32"], ports: [9100] }).catch((err: unknown) => err);
    expect((e as PrinterError).kind).toBe("refused");
    expect((e as PrinterError).message).toBe("port 22 is not in PRINTER_PORTS (9100)");
  });

  it("refuses localhost (it resolves to loopback) unless loopback is named", async () => {
    const e = await resolvePrinter({ host: "localhost", port: 9100 }, { networks: ["0.0.0.0/0", "::/0"], ports: [9100] }).catch((err: unknown) => err);
    expect((e as PrinterError).kind).toBe("refused");
    expect((e as PrinterError).message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1): .* is a loopback address/);
    await expect(resolvePrinter({ host: "localhost", port: 9100 }, { networks: ["127.0.0.0/8", "::1/128"], ports: [9100] })).resolves.toMatch(
      /^(127\.0\.0\.1|::1)$/,
    );
  });

  it("checks every address a name resolves to, and connects to the first", async () => {
    const resolve = async () => ["192.168.1.50", "10.9.9.9"];
    const e = await resolvePrinter({ host: "printer.lan", port: 9100 }, lan, resolve).catch((err: unknown) => err);
    expect((e as PrinterError).message).toBe("printer.lan resolves to 10.9.9.9: 10.9.9.9 is not in PRINTER_NETWORKS (192.168.0.0/16)");
    await expect(resolvePrinter({ host: "printer.lan", port: 9100 }, lan, async () => ["192.168.1.50", "192.168.1.51"])).resolves.toBe("192.168.1.50");
  });

  it("a name that does not resolve is unresolved", async () => {
    const e = await resolvePrinter({ host: "no-such-printer.invalid", port: 9100 }, lan).catch((err: unknown) => err);
    expect((e as PrinterError).kind).toBe("unresolved");
    expect((e as PrinterError).message).toBe("the printer's host no-such-printer.invalid does not resolve");
  });

  it("end to end: resolve with the stand-in's address named, then print", async () => {
    const address = await resolvePrinter({ host: "localhost", port }, { networks: ["127.0.0.1/32", "::1/128"], ports: [port] });
    if (address !== "127.0.0.1") return; // the stand-in listens on IPv4 only
    const before = printer.jobs().length;
    await sendToPrinter(address, port, Buffer.from("via localhost"));
    expect((await printer.waitForJobs(before + 1))[before]!.toString("latin1")).toBe("via localhost");
  });
});
