/**
 * The drain's rules (lib/core/printing/print-drainer.ts) on an in-memory ledger and a printer
 * that says what each test tells it: oldest first, waiting while the printer cannot print,
 * giving up on tickets older than the restaurant's age, one holder at a time.
 */
import { describe, expect, it } from "vitest";
import { PrintDrainer } from "@/lib/core/printing/print-drainer";
import type { PrinterLink, PrintLedger, PrintTarget, WaitingJob } from "@/lib/core/ports";
import type { PrinterStatus } from "@/lib/core/printing/printers";

const T0 = new Date("2030-05-01T12:00:00Z");

const target: PrintTarget = {
  id: "p1",
  tenantId: "t1",
  name: "Counter",
  host: "192.168.1.50",
  port: 9100,
  paper: "80mm",
  charset: "latin",
  channels: ["kiosk"],
  series: [],
  createdAt: T0,
  restaurant: "Noodle Bar",
  timeZone: "Europe/Berlin",
  currency: "EUR",
  language: "en",
  giveUpMinutes: 10,
};

interface Row extends WaitingJob {
  printedAt?: Date;
  gaveUpAt?: Date;
  lastError?: string;
}

class Ledger implements PrintLedger {
  rows: Row[] = [];
  holder: string | null = null;
  status: { status: PrinterStatus; error: string | null } = { status: "unknown", error: null };
  add(id: string, createdAt: Date): void {
    this.rows.push({
      id,
      kind: "ticket",
      state: "queued",
      attempts: 0,
      createdAt,
      url: `https://x.test/o/${id}`,
      order: { number: this.rows.length + 1, prefix: "", items: [], note: null, createdAt },
    });
  }
  target = async () => target;
  hold = async (_p: string, owner: string) => {
    if (this.holder && this.holder !== owner) return false;
    this.holder = owner;
    return true;
  };
  release = async (_p: string, owner: string) => {
    if (this.holder === owner) this.holder = null;
  };
  next = async () => this.rows.find((r) => r.state === "queued" || r.state === "printing") ?? null;
  sending = async (id: string) => {
    const r = this.rows.find((x) => x.id === id)!;
    r.state = "printing";
    r.attempts++;
  };
  printed = async (id: string, at: Date) => {
    Object.assign(
      this.rows.find((x) => x.id === id)!,
      { state: "printed", printedAt: at },
    );
  };
  notPrinted = async (id: string, error: string) => {
    Object.assign(
      this.rows.find((x) => x.id === id)!,
      { state: "queued", lastError: error },
    );
  };
  gaveUp = async (id: string, at: Date, error: string) => {
    Object.assign(
      this.rows.find((x) => x.id === id)!,
      { state: "gaveUp", gaveUpAt: at, lastError: error },
    );
  };
  setStatus = async (_p: string, status: PrinterStatus, error: string | null) => {
    const changed = status !== this.status.status || error !== this.status.error;
    this.status = { status, error };
    return changed;
  };
}

/** A printer whose status the test sets, which records the jobs it printed (by id) and can fail a send. */
function printer(): PrinterLink & { says: PrinterStatus; printedIds: string[]; failNext: string | null } {
  const p = {
    says: "ok" as PrinterStatus,
    printedIds: [] as string[],
    failNext: null as string | null,
    status: async () => ({ status: p.says, error: p.says === "offline" ? "connection refused" : null }),
    print: async (_t: PrintTarget, job: WaitingJob) => {
      if (p.failNext) {
        const error = p.failNext;
        p.failNext = null;
        return { ok: false as const, error };
      }
      p.printedIds.push(job.id);
      return { ok: true as const };
    },
  };
  return p;
}

function setup(now = () => T0) {
  const ledger = new Ledger();
  const link = printer();
  const outcomes: string[] = [];
  const changed: string[] = [];
  const drainer = new PrintDrainer({
    ledger,
    link,
    events: { printersChanged: (t) => changed.push(t.id) },
    metrics: { job: (o) => outcomes.push(o) },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    clock: { now },
  });
  return { ledger, link, outcomes, changed, drainer };
}

describe("PrintDrainer", () => {
  it("prints every waiting job oldest first, then says the printer is idle", async () => {
    const { ledger, link, outcomes, changed, drainer } = setup();
    ["a", "b", "c"].forEach((id) => ledger.add(id, T0));
    expect(await drainer.drain("p1", "job-1")).toBe("idle");
    expect(link.printedIds).toEqual(["a", "b", "c"]);
    expect(ledger.rows.map((r) => [r.state, r.attempts])).toEqual([
      ["printed", 1],
      ["printed", 1],
      ["printed", 1],
    ]);
    expect(outcomes).toEqual(["printed", "printed", "printed"]);
    expect(changed).toEqual(["t1"]);
    expect(ledger.holder).toBeNull();
  });

  it("keeps every job waiting, in order, while the printer is offline, out of paper or open", async () => {
    for (const says of ["offline", "paperOut", "coverOpen"] as const) {
      const { ledger, link, outcomes, drainer } = setup();
      ["a", "b"].forEach((id) => ledger.add(id, T0));
      link.says = says;
      expect(await drainer.drain("p1", "job-1")).toBe("later");
      expect(link.printedIds).toEqual([]);
      expect(ledger.rows.map((r) => r.state)).toEqual(["queued", "queued"]);
      expect(ledger.rows[0]!.lastError).toBe(says === "offline" ? "connection refused" : says);
      expect(ledger.status.status).toBe(says);
      expect(outcomes).toEqual(["retried"]);
      link.says = "ok";
      expect(await drainer.drain("p1", "job-2")).toBe("idle");
      expect(link.printedIds).toEqual(["a", "b"]);
    }
  });

  it("prints on a printer that does not answer status requests (unknown)", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    link.says = "unknown";
    expect(await drainer.drain("p1", "job-1")).toBe("idle");
    expect(link.printedIds).toEqual(["a"]);
  });

  it("a send that fails leaves the job first in line and marks the printer offline", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.failNext = "the printer closed the connection";
    expect(await drainer.drain("p1", "job-1")).toBe("later");
    expect(ledger.rows.map((r) => [r.id, r.state, r.lastError])).toEqual([
      ["a", "queued", "the printer closed the connection"],
      ["b", "queued", undefined],
    ]);
    expect(ledger.status).toEqual({ status: "offline", error: "the printer closed the connection" });
    expect(await drainer.drain("p1", "job-2")).toBe("idle");
    expect(link.printedIds).toEqual(["a", "b"]);
    // Sent twice: the first attempt counted too.
    expect(ledger.rows[0]!.attempts).toBe(2);
  });

  it("gives up on a job older than the restaurant's give-up age, even while the printer is off, and prints the next", async () => {
    const now = new Date(T0.getTime() + 10 * 60_000 + 1);
    const { ledger, link, outcomes, drainer } = setup(() => now);
    ledger.add("old", T0);
    ledger.add("fresh", new Date(now.getTime() - 60_000));
    link.says = "offline";
    expect(await drainer.drain("p1", "job-1")).toBe("later");
    expect(ledger.rows.map((r) => r.state)).toEqual(["gaveUp", "queued"]);
    expect(ledger.rows[0]).toMatchObject({ gaveUpAt: now, lastError: "not printed within 10 minutes" });
    expect(outcomes).toEqual(["gave_up", "retried"]);
    link.says = "ok";
    expect(await drainer.drain("p1", "job-2")).toBe("idle");
    expect(link.printedIds).toEqual(["fresh"]);
  });

  it("a printer another drain holds is left to it (nothing printed twice)", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    ledger.holder = "someone-else";
    expect(await drainer.drain("p1", "job-1")).toBe("later");
    expect(link.printedIds).toEqual([]);
    expect(ledger.holder).toBe("someone-else");
  });

  it("a drain that lost its hold (stalled past it) stops before the next ticket", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.print = async (_t, job) => {
      link.printedIds.push(job.id);
      // While "a" was sent, this node stalled and another took the printer.
      ledger.holder = "someone-else";
      return { ok: true as const };
    };
    expect(await drainer.drain("p1", "job-1")).toBe("later");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.rows.map((r) => r.state)).toEqual(["printed", "queued"]);
  });

  it("a job left 'printing' by a node that died is printed again (at least once)", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    ledger.rows[0]!.state = "printing";
    ledger.rows[0]!.attempts = 1;
    expect(await drainer.drain("p1", "job-1")).toBe("idle");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.rows[0]!.attempts).toBe(2);
  });
});
