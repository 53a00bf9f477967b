/**
 * The drain's rules (lib/core/printing/print-drainer.ts) on an in-memory ledger and a printer
 * that says what each test tells it: oldest first, waiting while the printer cannot print,
 * giving up on tickets older than the restaurant's age, one holder at a time.
 */
import { describe, expect, it } from "vitest";
import { MAYBE_PRINTED, PrintDrainer } from "@/lib/core/printing/print-drainer";
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

interface Row {
  id: string;
  state: "queued" | "printing" | "printed" | "gaveUp";
  /** The drain that claimed it, and whether its bytes began to go out (decision 0033). */
  holder: string | null;
  sending: boolean;
  attempts: number;
  createdAt: Date;
  printedAt?: Date;
  gaveUpAt?: Date;
  lastError?: string;
}

/** The ledger's promises in memory: every job write is conditional on its holder and state, as in SQL. */
class Ledger implements PrintLedger {
  rows: Row[] = [];
  /** Who holds the printer. */
  holder: string | null = null;
  status: { status: PrinterStatus; error: string | null } = { status: "unknown", error: null };
  add(id: string, createdAt: Date): void {
    this.rows.push({ id, state: "queued", holder: null, sending: false, attempts: 0, createdAt });
  }
  private mine(id: string, holder: string): Row | undefined {
    return this.rows.find((x) => x.id === id && x.holder === holder && x.state === "printing");
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
  claim = async (_p: string, holder: string): Promise<WaitingJob | null> => {
    if (this.holder !== holder) return null;
    const r = this.rows.find((x) => x.state === "queued" || x.state === "printing");
    if (!r) return null;
    Object.assign(r, { state: "printing", holder });
    return {
      id: r.id,
      kind: "ticket",
      stationId: null,
      state: r.sending ? "sending" : "claimed",
      attempts: r.attempts,
      createdAt: r.createdAt,
      url: `https://x.test/o/${r.id}`,
      order: { number: this.rows.indexOf(r) + 1, prefix: "", items: [], note: null, createdAt: r.createdAt, channel: "api", service: null, stations: [] },
    };
  };
  sending = async (id: string, holder: string) => {
    const r = this.mine(id, holder);
    if (!r || r.sending || this.holder !== holder) return false;
    r.sending = true;
    r.attempts++;
    return true;
  };
  printed = async (id: string, holder: string, at: Date) => {
    const r = this.mine(id, holder);
    if (!r?.sending) return false;
    Object.assign(r, { state: "printed", printedAt: at });
    this.failures = 0;
    return true;
  };
  notPrinted = async (id: string, holder: string, error: string) => {
    const r = this.mine(id, holder);
    if (!r) return false;
    Object.assign(r, { state: "queued", holder: null, sending: false, lastError: error });
    return true;
  };
  gaveUp = async (id: string, holder: string, at: Date, error: string) => {
    const r = this.mine(id, holder);
    if (!r) return false;
    Object.assign(r, { state: "gaveUp", gaveUpAt: at, lastError: error });
    return true;
  };
  /** Drains in a row that found the printer not answering (the SQL ledger turns it into a delay). */
  failures = 0;
  unanswered = async () => {
    this.failures++;
  };
  setStatus = async (_p: string, status: PrinterStatus, error: string | null) => {
    // An answer ends the backoff; no answer (offline, or unknown: decision 0040) keeps it.
    if (status !== "offline" && status !== "unknown") this.failures = 0;
    const changed = status !== this.status.status || error !== this.status.error;
    this.status = { status, error };
    return changed;
  };
}

type TestLink = PrinterLink & {
  says: PrinterStatus;
  printedIds: string[];
  failNext: string | null;
  lookups: number;
  /** Runs when the status query is asked (a node stalls there). */
  onStatus: () => void;
  print: (job: WaitingJob) => Promise<{ ok: true } | { ok: false; error: string }>;
};

/** A printer whose status the test sets, which records the jobs it printed (by id) and can fail a send. */
function printer(): TestLink {
  const p: TestLink = {
    says: "ok",
    printedIds: [],
    failNext: null,
    lookups: 0,
    onStatus: () => {},
    print: async (job) => {
      if (p.failNext) {
        const error = p.failNext;
        p.failNext = null;
        return { ok: false as const, error };
      }
      p.printedIds.push(job.id);
      return { ok: true as const };
    },
    reach: async () => {
      p.lookups++;
      return {
        ok: true,
        printer: {
          status: async () => {
            p.onStatus();
            return { status: p.says, error: p.says === "offline" ? "connection refused" : null };
          },
          print: (job) => p.print(job),
        },
      };
    },
  };
  return p;
}

function setup(now = () => T0) {
  let drains = 0;
  const ledger = new Ledger();
  const link = printer();
  const outcomes: string[] = [];
  const changed: string[] = [];
  const drainer = new PrintDrainer(
    {
      ledger,
      link,
      events: { printersChanged: (t) => changed.push(t.id) },
      metrics: { job: (o) => outcomes.push(o) },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      clock: { now },
    },
    () => `drain-${++drains}`,
  );
  return { ledger, link, outcomes, changed, drainer };
}

describe("PrintDrainer", () => {
  it("prints every waiting job oldest first, then says the printer is idle", async () => {
    const { ledger, link, outcomes, changed, drainer } = setup();
    ["a", "b", "c"].forEach((id) => ledger.add(id, T0));
    expect(await drainer.drain("p1")).toBe("idle");
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
      expect(await drainer.drain("p1")).toBe("later");
      expect(link.printedIds).toEqual([]);
      expect(ledger.rows.map((r) => r.state)).toEqual(["queued", "queued"]);
      expect(ledger.rows[0]!.lastError).toBe(says === "offline" ? "connection refused" : says);
      expect(ledger.status.status).toBe(says);
      expect(outcomes).toEqual(["retried"]);
      // Only a printer that does not answer backs off; one out of paper or open answered.
      expect(ledger.failures).toBe(says === "offline" ? 1 : 0);
      link.says = "ok";
      expect(await drainer.drain("p1")).toBe("idle");
      expect(link.printedIds).toEqual(["a", "b"]);
      expect(ledger.failures).toBe(0);
    }
  });

  it("a printer that does not answer keeps backing off: its unknown status does not end the backoff, a printed ticket does", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    link.says = "unknown";
    link.failNext = "the printer did not answer";
    expect(await drainer.drain("p1")).toBe("later");
    link.failNext = "the printer did not answer";
    expect(await drainer.drain("p1")).toBe("later");
    expect(ledger.failures).toBe(2);
    expect(await drainer.drain("p1")).toBe("idle");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.failures).toBe(0);
  });

  it("prints on a printer that does not answer status requests (unknown)", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    link.says = "unknown";
    expect(await drainer.drain("p1")).toBe("idle");
    expect(link.printedIds).toEqual(["a"]);
  });

  it("a send that fails leaves the job first in line and the printer offline (its tickets wait)", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.failNext = "the printer closed the connection";
    expect(await drainer.drain("p1")).toBe("later");
    expect(ledger.rows.map((r) => [r.id, r.state, r.lastError])).toEqual([
      ["a", "queued", "the printer closed the connection"],
      ["b", "queued", undefined],
    ]);
    expect(ledger.status).toEqual({ status: "offline", error: "the printer closed the connection" });
    expect(ledger.failures).toBe(1);
    expect(await drainer.drain("p1")).toBe("idle");
    expect(ledger.failures).toBe(0);
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
    expect(await drainer.drain("p1")).toBe("later");
    expect(ledger.rows.map((r) => r.state)).toEqual(["gaveUp", "queued"]);
    expect(ledger.rows[0]).toMatchObject({ gaveUpAt: now, lastError: "not printed within 10 minutes" });
    expect(outcomes).toEqual(["gave_up", "retried"]);
    link.says = "ok";
    expect(await drainer.drain("p1")).toBe("idle");
    expect(link.printedIds).toEqual(["fresh"]);
  });

  it("a printer another drain holds is left to it (nothing printed twice)", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    ledger.holder = "someone-else";
    expect(await drainer.drain("p1")).toBe("later");
    expect(link.printedIds).toEqual([]);
    expect(ledger.holder).toBe("someone-else");
  });

  it("a drain that lost its hold (stalled past it) stops before the next ticket", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.print = async (job) => {
      link.printedIds.push(job.id);
      // While "a" was sent, this node stalled and another took the printer.
      ledger.holder = "someone-else";
      return { ok: true as const };
    };
    expect(await drainer.drain("p1")).toBe("later");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.rows.map((r) => r.state)).toEqual(["printed", "queued"]);
  });

  it("gives each drain its own holder token, so a queue job run again is another drain", async () => {
    const { ledger, drainer } = setup();
    const holders: string[] = [];
    const hold = ledger.hold;
    ledger.hold = async (p, owner) => {
      holders.push(owner);
      return hold(p, owner);
    };
    await drainer.drain("p1");
    await drainer.drain("p1");
    expect(new Set(holders)).toEqual(new Set(["drain-1", "drain-2"]));
  });

  it("a job claimed by a drain that stopped before sending is printed by the next", async () => {
    const { ledger, link, drainer } = setup();
    ledger.add("a", T0);
    Object.assign(ledger.rows[0]!, { state: "printing", holder: "dead-drain" });
    expect(await drainer.drain("p1")).toBe("idle");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.rows[0]).toMatchObject({ state: "printed", holder: "drain-1", attempts: 1 });
  });

  it("a job taken over mid-send is given up as maybe printed, never sent again (at most once)", async () => {
    const { ledger, link, outcomes, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    Object.assign(ledger.rows[0]!, { state: "printing", holder: "stalled-drain", sending: true, attempts: 1 });
    expect(await drainer.drain("p1")).toBe("idle");
    expect(link.printedIds).toEqual(["b"]);
    expect(ledger.rows[0]).toMatchObject({ state: "gaveUp", gaveUpAt: T0, lastError: MAYBE_PRINTED, attempts: 1 });
    expect(outcomes).toEqual(["gave_up", "printed"]);
  });

  it("a drain taken over while it asked the printer's status sends nothing", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.onStatus = () => {
      // This node stalled here; another took the printer and claimed the job.
      ledger.holder = "other-drain";
      Object.assign(ledger.rows[0]!, { holder: "other-drain" });
    };
    expect(await drainer.drain("p1")).toBe("later");
    expect(link.printedIds).toEqual([]);
    expect(ledger.rows.map((r) => [r.state, r.holder, r.attempts])).toEqual([
      ["printing", "other-drain", 0],
      ["queued", null, 0],
    ]);
  });

  it("a drain taken over while its bytes went out leaves the job to its new holder and sends nothing more", async () => {
    const { ledger, link, outcomes, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    link.print = async (job) => {
      link.printedIds.push(job.id);
      ledger.holder = "other-drain";
      Object.assign(ledger.rows[0]!, { holder: "other-drain" });
      return { ok: true as const };
    };
    expect(await drainer.drain("p1")).toBe("later");
    expect(link.printedIds).toEqual(["a"]);
    expect(ledger.rows.map((r) => [r.state, r.holder])).toEqual([
      ["printing", "other-drain"],
      ["queued", null],
    ]);
    expect(outcomes).toEqual([]);
  });

  it("asks the network for the printer's address once per ticket (status and bytes share it)", async () => {
    const { ledger, link, drainer } = setup();
    ["a", "b"].forEach((id) => ledger.add(id, T0));
    expect(await drainer.drain("p1")).toBe("idle");
    // Two tickets and the status check after the last.
    expect(link.lookups).toBe(3);
  });
});
