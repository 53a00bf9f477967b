/** The push dispatcher on fakes and a fixed clock (decision 0053): what it sends, skips, expires, retries, defers. */
import { describe, expect, it } from "vitest";
import { PushDispatcher } from "@/lib/core/push/push-dispatcher";
import type { DuePush, PushAnswerRecord, PushLedger, PushRequest } from "@/lib/core/ports";

const NOW = new Date("2026-12-02T12:00:00Z");
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function due(over: Partial<DuePush> = {}): DuePush {
  return {
    id: "d1",
    tenantId: "t1",
    subscriptionId: "s1",
    kind: "ready",
    since: new Date(NOW.getTime() - 60_000),
    attempts: 0,
    endpoint: "https://fcm.googleapis.com/fcm/send/x",
    p256dh: "p",
    auth: "a",
    lang: "en",
    order: { id: "0b6c3d0e-1111-4222-8333-944455556666", status: "READY", cleared: false, prefix: "K", number: 12 },
    tenant: { slug: "noodle", name: "Noodle Bar" },
    ...over,
  };
}

function rig(d: DuePush | null, answer: PushAnswerRecord | (() => Promise<PushAnswerRecord>) = { status: 201 }) {
  const calls: string[] = [];
  const sent: PushRequest[] = [];
  const outcomes: string[] = [];
  const ledger: PushLedger = {
    due: () => Promise.resolve(d),
    finish: (_id, _job, outcome, r) => (calls.push(`finish ${outcome} ${r.attempts}`), Promise.resolve()),
    retry: (_id, _job, r) => (calls.push(`retry ${r.attempts} +${(r.nextAt.getTime() - NOW.getTime()) / 1000}s`), Promise.resolve()),
    gone: (_id, _job, sub) => (calls.push(`gone ${sub}`), Promise.resolve()),
    defer: () => (calls.push("defer"), Promise.resolve()),
  };
  const dispatcher = new PushDispatcher({
    ledger,
    send: (r) => (sent.push(r), typeof answer === "function" ? answer() : Promise.resolve(answer)),
    metrics: { send: (o) => outcomes.push(o) },
    log: silent,
    clock: { now: () => NOW },
    services: [],
    perTenant: 2,
  });
  return { dispatcher, calls, sent, outcomes };
}

describe("PushDispatcher", () => {
  it("sends the payload with the TTL left of the window, the order's Topic; 201 is delivered", async () => {
    const r = rig(due());
    await r.dispatcher.attempt("d1", "j1");
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({
      ttl: 1740,
      topic: "0b6c3d0e111142228333944455556666",
      payload: { title: "Noodle Bar", body: "Your order K12 is ready", number: "K12" },
    });
    expect(r.calls).toEqual(["finish delivered 1"]);
    expect(r.outcomes).toEqual(["delivered"]);
  });

  it("a stale job (the ledger has nothing for it) does nothing", async () => {
    const r = rig(null);
    await r.dispatcher.attempt("d1", "old");
    expect([r.sent, r.calls, r.outcomes]).toEqual([[], [], []]);
  });

  it("skips an order no longer ready or cleared, and expires one past the window, without sending", async () => {
    for (const [d, outcome] of [
      [due({ order: { ...due().order, status: "COLLECTED" } }), "skipped"],
      [due({ order: { ...due().order, cleared: true } }), "skipped"],
      [due({ since: new Date(NOW.getTime() - 1800_000) }), "expired"],
    ] as const) {
      const r = rig(d);
      await r.dispatcher.attempt("d1", "j1");
      expect(r.sent).toEqual([]);
      expect(r.calls).toEqual([`finish ${outcome} 0`]);
    }
  });

  it("gives up an endpoint no longer allowed, without sending", async () => {
    const r = rig(due({ endpoint: "https://attacker.example/x" }));
    await r.dispatcher.attempt("d1", "j1");
    expect(r.sent).toEqual([]);
    expect(r.calls).toEqual(["finish gave_up 0"]);
  });

  it("410 deletes the subscription; 500 retries; 403 gives up", async () => {
    const gone = rig(due(), { status: 410 });
    await gone.dispatcher.attempt("d1", "j1");
    expect(gone.calls).toEqual(["gone s1"]);
    const retry = rig(due({ attempts: 1 }), { status: 500 });
    await retry.dispatcher.attempt("d1", "j1");
    expect(retry.calls[0]).toMatch(/^retry 2 \+2(\.\d+)?s$/);
    const refused = rig(due(), { status: 403 });
    await refused.dispatcher.attempt("d1", "j1");
    expect(refused.calls).toEqual(["finish gave_up 1"]);
  });

  it("one restaurant holds at most its share of the workers: the third push at once is deferred", async () => {
    let release!: () => void;
    const held = new Promise<PushAnswerRecord>((r) => (release = () => r({ status: 201 })));
    const r = rig(due(), () => held);
    const running = [r.dispatcher.attempt("d1", "j1"), r.dispatcher.attempt("d2", "j2")];
    await new Promise((resolve) => setTimeout(resolve, 0));
    await r.dispatcher.attempt("d3", "j3");
    expect(r.calls).toEqual(["defer"]);
    expect(r.outcomes).toEqual(["deferred"]);
    release();
    await Promise.all(running);
    expect(r.sent).toHaveLength(2);
  });
});
