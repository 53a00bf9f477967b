/**
 * Every wait inside a drain's hold is bounded (decision 0033): a printer's host name whose
 * lookup never answers fails the step within the lookup's limit (the printer shows as not
 * resolving), and the longest step fits inside the hold.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PrintTarget } from "@/lib/core/ports";
import { createPrinterLink } from "@/lib/adapters/printers/network-printer.server";
import { DEFAULT_LOOKUP_TIMEOUT_MS, PRINTER_STEP_MAX_MS } from "@/lib/adapters/printers/tcp-printer.server";
import { PRINT_HOLD_SECONDS } from "@/lib/adapters/postgres/print-queue.server";
import { PrintDrainer } from "@/lib/core/printing/print-drainer";
import type { PrinterStatus } from "@/lib/core/printing/printers";

const target: PrintTarget = {
  id: "p1",
  tenantId: "t1",
  name: "Counter",
  host: "printer.lan",
  port: 9100,
  paper: "80mm",
  charset: "latin",
  channels: [],
  series: [],
  createdAt: new Date(0),
  restaurant: "Noodle Bar",
  timeZone: "Europe/Berlin",
  currency: null,
  language: null,
  giveUpMinutes: 10,
};
const policy = { networks: ["192.168.0.0/16"], ports: [9100] };

afterEach(() => vi.useRealTimers());

describe("a printer lookup inside a hold", () => {
  it("a lookup that never answers fails the step after DEFAULT_LOOKUP_TIMEOUT_MS, and the printer says why", async () => {
    vi.useFakeTimers();
    let lookups = 0;
    const link = createPrinterLink({
      policy,
      resolve: () => {
        lookups++;
        return new Promise<string[]>(() => {});
      },
    });
    const stored: { status: PrinterStatus; error: string | null }[] = [];
    const drainer = new PrintDrainer({
      ledger: {
        target: async () => target,
        hold: async () => true,
        release: async () => {},
        claim: async () => null,
        sending: async () => false,
        printed: async () => false,
        notPrinted: async () => false,
        gaveUp: async () => false,
        unanswered: async () => {},
        setStatus: async (_p, status, error) => {
          stored.push({ status, error });
          return true;
        },
      },
      link,
      events: { printersChanged: () => {} },
      metrics: { job: () => {} },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      clock: { now: () => new Date() },
    });
    const checked = drainer.checkStatus(target);
    await vi.advanceTimersByTimeAsync(DEFAULT_LOOKUP_TIMEOUT_MS);
    expect(await checked).toBe(true);
    // The restaurant reads the plain sentence (PRINTER_ERRORS=plain, the default); the detail is the log's.
    expect(stored).toEqual([{ status: "offline", error: "this printer address is not allowed" }]);
    expect(lookups).toBe(1);
  });

  it("the longest step (a lookup, a status query, a ticket) fits inside the printer's hold, with room for its database writes", () => {
    expect(PRINTER_STEP_MAX_MS).toBeLessThanOrEqual(PRINT_HOLD_SECONDS * 1000 - 2_000);
  });
});
