import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import type { AuditEntry } from "@/lib/core/audit";
import type { PinFailures } from "@/lib/core/staff/pin-waits";
import type { StaffMemberInfo, StaffMemberStore } from "@/lib/core/ports";
import { StaffService } from "@/lib/core/staff/staff-service";
import type { Tenant } from "@/lib/core/tenants";

const tenant = { id: "t1", slug: "noodles" } as Tenant;
const A = "0b9f1c1e-0000-4000-8000-00000000000a";
const B = "0b9f1c1e-0000-4000-8000-00000000000b";
const C = "0b9f1c1e-0000-4000-8000-00000000000c";

/** The store's contract in memory: one try at a time, counts and audit stored with the outcome. */
function harness() {
  let now = new Date("2026-12-02T18:00:00Z");
  const people = new Map([
    [A, { id: A, name: "Li Wei", role: "KITCHEN" as const, active: true, generation: 1, pinHash: "hash:2580" }],
    [B, { id: B, name: "Ana", role: "KITCHEN" as const, active: true, generation: 1, pinHash: "hash:7391" }],
    [C, { id: C, name: "Cam", role: "CASHIER" as const, active: true, generation: 1, pinHash: "hash:4682" }],
  ]);
  const counts = new Map<string, PinFailures>();
  const audit: Array<Omit<AuditEntry, "at">> = [];
  let checks = 0;
  const store = {
    async withPinCounts(_tenantId, memberId, addressKey, decide) {
      const get = (k: string) => counts.get(k) ?? { failures: 0, lastFailedAt: null, waitUntil: null };
      const m = people.get(memberId) ?? null;
      const out = await decide({ member: m && { ...m }, person: get(`person:${memberId}`), address: get(`address:${addressKey}`) });
      if (out.counts) {
        counts.set(`person:${memberId}`, out.counts.person);
        counts.set(`address:${addressKey}`, out.counts.address);
      }
      audit.push(...(out.audit ?? []));
      return out.result;
    },
  } as Pick<StaffMemberStore, "withPinCounts"> as StaffMemberStore;
  const service = new StaffService({
    store,
    hash: async (pin) => `hash:${pin}`,
    verify: async (hash, pin) => {
      checks++;
      return hash === `hash:${pin}`;
    },
    invalidate: {} as never,
    clock: { now: () => now },
  });
  const tryPin = (id: string, pin: string, address = "192.168.1.20") =>
    service.signInWithPin(tenant, id, pin, address).then(
      (m) => ({ ok: m.name }),
      (e: unknown) => {
        if (!isAppError(e)) throw e;
        return { code: e.code, reason: e.reason, message: e.userMessage, retryAfter: (e.details as { retryAfter?: number } | undefined)?.retryAfter };
      },
    );
  return { service, people, audit, tryPin, checks: () => checks, advance: (s: number) => (now = new Date(now.getTime() + s * 1000)) };
}

describe("signing in with a PIN", () => {
  it("the right PIN signs the person in with their role and generation", async () => {
    const h = harness();
    expect(await h.service.signInWithPin(tenant, A, "2580", "192.168.1.20")).toEqual({ id: A, name: "Li Wei", role: "KITCHEN", generation: 1 });
  });

  it("the 5th wrong PIN starts a 30 s wait; during it the PIN is not even checked; the person's name is in the sentence", async () => {
    const h = harness();
    for (let i = 0; i < 4; i++)
      expect(await h.tryPin(A, "1111")).toMatchObject({ code: "UNAUTHENTICATED", reason: "wrongPin", message: "Wrong PIN for Li Wei." });
    expect(await h.tryPin(A, "1111")).toMatchObject({ reason: "wrongPinWait", message: "Wrong PIN for Li Wei — try again in 30 s.", retryAfter: 30 });
    const checked = h.checks();
    expect(await h.tryPin(A, "2580")).toMatchObject({
      code: "RATE_LIMITED",
      reason: "pinWaitPerson",
      message: "Too many wrong PINs for Li Wei — try again in 30 s.",
    });
    expect(h.checks()).toBe(checked);
    h.advance(30);
    expect(await h.tryPin(A, "2580")).toEqual({ ok: "Li Wei" });
    // The manager sees it: one entry when the wait began (and from where), then the sign-in itself, named.
    expect(h.audit).toEqual([
      { actor: "system", action: "staff.pinWait", details: { id: A, name: "Li Wei", failures: 5, waitSeconds: 30, address: "192.168.1.20" } },
      { actor: "Li Wei (staff)", action: "staff.signIn", details: { id: A, name: "Li Wei", role: "KITCHEN", address: "192.168.1.20" } },
    ]);
  });

  it("the waits double, and a right PIN clears them for the person", async () => {
    const h = harness();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await h.tryPin(A, "1111", `10.0.0.${i}`);
      if ("retryAfter" in r && r.retryAfter) {
        waits.push(r.retryAfter);
        h.advance(r.retryAfter);
      }
    }
    expect(waits).toEqual([30, 60, 120, 240]);
    expect(await h.tryPin(A, "2580", "10.0.0.99")).toEqual({ ok: "Li Wei" });
    expect(await h.tryPin(A, "1111", "10.0.0.99")).toMatchObject({ reason: "wrongPin" });
  });

  it("never locks out a colleague: B signs in from another device while A waits, and from A's device too", async () => {
    const h = harness();
    for (let i = 0; i < 5; i++) await h.tryPin(A, "1111", "192.168.1.66");
    expect(await h.tryPin(A, "2580", "192.168.1.66")).toMatchObject({ reason: "pinWaitPerson" });
    expect(await h.tryPin(B, "7391", "192.168.1.21")).toEqual({ ok: "Ana" });
    expect(await h.tryPin(B, "7391", "192.168.1.66")).toEqual({ ok: "Ana" });
  });

  it("an address that tries many people waits from its 20th wrong PIN, whoever it tries next; other addresses do not", async () => {
    const h = harness();
    for (let i = 0; i < 20; i++) {
      const r = await h.tryPin(i % 2 ? A : B, "1111", "203.0.113.9");
      expect(r).toMatchObject({ code: "UNAUTHENTICATED" });
      // The person's own wait: the next try comes after it (well within the address's hour).
      if ("retryAfter" in r && r.retryAfter && i < 19) h.advance(r.retryAfter);
    }
    // Cam has typed nothing wrong, but this address has.
    expect(await h.tryPin(C, "4682", "203.0.113.9")).toMatchObject({
      code: "RATE_LIMITED",
      reason: "pinWaitAddress",
      message: expect.stringContaining("from this device"),
    });
    expect(await h.tryPin(C, "4682", "203.0.113.10")).toEqual({ ok: "Cam" });
    expect(h.audit.filter((e) => e.action === "staff.pinWaitAddress")).toEqual([
      { actor: "system", action: "staff.pinWaitAddress", details: { address: "203.0.113.9", failures: 20, waitSeconds: 30 } },
    ]);
  });

  it("the wrong PIN that starts the device's wait says so, not that the person must wait", async () => {
    // A shared tablet: five people's everyday typos, four each (none of them waits), twenty for the device.
    const h = harness();
    const ids = [A, B, C, "0b9f1c1e-0000-4000-8000-00000000000d", "0b9f1c1e-0000-4000-8000-00000000000e"];
    h.people.set(ids[3]!, { id: ids[3]!, name: "Dev", role: "KITCHEN", active: true, generation: 1, pinHash: "hash:3817" });
    h.people.set(ids[4]!, { id: ids[4]!, name: "Eli", role: "KITCHEN", active: true, generation: 1, pinHash: "hash:9264" });
    const said: unknown[] = [];
    for (let i = 0; i < 20; i++) said.push(await h.tryPin(ids[i % 5]!, "1111", "198.51.100.7"));
    expect(said.slice(0, 19)).toEqual(Array.from({ length: 19 }, () => expect.objectContaining({ reason: "wrongPin" })));
    expect(said[19]).toMatchObject({
      code: "UNAUTHENTICATED",
      reason: "wrongPinWaitAddress",
      message: "Wrong PIN for Eli. Too many wrong PINs from this device — try again in 30 s.",
      retryAfter: 30,
    });
    // Everyone on that device waits, whoever they are; Eli's own count (4) started nothing.
    expect(await h.tryPin(A, "2580", "198.51.100.7")).toMatchObject({ reason: "pinWaitAddress" });
    expect(await h.tryPin(ids[4]!, "9264", "198.51.100.8")).toEqual({ ok: "Eli" });
  });

  it("tablets behind one address (a shop's router): typos put right by the same person never add up to a wait for all", async () => {
    const h = harness();
    // A busy hour: every cook mistypes three times, then gets it right — 27 wrong PINs from one address.
    for (let round = 0; round < 3; round++) {
      for (const [id, pin] of [
        [A, "2580"],
        [B, "7391"],
        [C, "4682"],
      ] as const) {
        for (let i = 0; i < 3; i++) expect(await h.tryPin(id, "1111", "198.51.100.1")).toMatchObject({ reason: "wrongPin" });
        expect(await h.tryPin(id, pin, "198.51.100.1")).toMatchObject({ ok: expect.any(String) });
        h.advance(60);
      }
    }
    expect(h.audit.filter((e) => e.action === "staff.pinWaitAddress")).toEqual([]);
    // Wrong PINs nobody puts right still count: from the 20th, the address waits.
    for (let i = 0; i < 20; i++) {
      const r = await h.tryPin(i % 2 ? A : B, "1111", "198.51.100.1");
      if ("retryAfter" in r && r.retryAfter && i < 19) h.advance(r.retryAfter);
    }
    expect(await h.tryPin(C, "4682", "198.51.100.1")).toMatchObject({ reason: "pinWaitAddress" });
  });

  it("a person let go, or unknown, cannot sign in; nothing is counted", async () => {
    const h = harness();
    h.people.get(A)!.active = false;
    expect(await h.tryPin(A, "2580")).toMatchObject({ code: "UNAUTHENTICATED", reason: "unknownPerson" });
    expect(await h.tryPin("not-an-id", "2580")).toMatchObject({ reason: "unknownPerson" });
    expect(h.checks()).toBe(0);
  });
});

describe("adding and changing people", () => {
  it("refuses a guessable PIN and a bad role with 400, naming the field, before anything is stored", async () => {
    let stored = 0;
    const service = new StaffService({
      store: {
        create: async () => {
          stored++;
          return {} as StaffMemberInfo;
        },
      } as Pick<StaffMemberStore, "create"> as StaffMemberStore,
      hash: async (p) => p,
      verify: async () => false,
      invalidate: {} as never,
      clock: { now: () => new Date() },
    });
    for (const [input, path] of [
      [{ name: "Li Wei", role: "kitchen", pin: "1234" }, "pin"],
      [{ name: "Li Wei", role: "kitchen", pin: "0000" }, "pin"],
      [{ name: "Li Wei", role: "chef", pin: "2580" }, "role"],
      [{ name: "", role: "kitchen", pin: "2580" }, "name"],
      [{ name: "Li Wei", role: "kitchen", pin: 2580 }, "pin"],
    ] as const) {
      const e = await service.create(tenant, input, "Boss (staff)").catch((x: unknown) => x);
      expect(isAppError(e) && e.code).toBe("BAD_INPUT");
      expect((e as { details: { fields: Array<{ path: string }> } }).details.fields.map((f) => f.path)).toContain(path);
    }
    expect(stored).toBe(0);
  });
});
