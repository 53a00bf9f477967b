/**
 * Clips rendered ahead (decision 0036), without eSpeak: the cache's pinned part outlives any
 * number of other clips until its pin ends; a ready or called order asks for its clips on
 * this node and every other, in the restaurant's language first, where its boards use the
 * fallback voice; other nodes' messages are checked before anything is rendered.
 */
import { describe, expect, it } from "vitest";
import { ClipCache } from "@/lib/adapters/voice/clip-cache";
import { FallbackBoards } from "@/lib/adapters/voice/fallback-boards";
import { localesFor, withVoiceAhead, type AheadMessage, type AheadRelay } from "@/lib/adapters/voice/voice-ahead.server";
import type { VoiceRenderer } from "@/lib/adapters/voice/voice.server";
import type { EventPublisher } from "@/lib/core/ports";
import type { BoardOrder } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";

const wav = (n: number) => new Uint8Array([n]);

describe("ClipCache", () => {
  it("keeps a pinned clip whatever else is cached, until its pin ends; then it is an ordinary entry", () => {
    let now = 1_000;
    const cache = new ClipCache({ size: 2, pinnedSize: 4, now: () => now });
    cache.set("en/7", wav(7), 5_000);
    for (let i = 0; i < 50; i++) cache.set(`en/${100 + i}`, wav(i));
    expect(cache.get("en/7")).toEqual(wav(7));
    expect(cache.size).toEqual({ pinned: 1, recent: 2 });
    now = 5_000;
    expect(cache.isPinned("en/7")).toBe(false);
    expect(cache.get("en/7")).toEqual(wav(7)); // demoted, still cached
    cache.set("en/200", wav(1));
    cache.set("en/201", wav(2));
    expect(cache.get("en/7")).toBeUndefined();
  });

  it("pins a clip already cached, keeps the longer of two pins, and past pinnedSize demotes the pin that ends first", () => {
    const cache = new ClipCache({ size: 10, pinnedSize: 2, now: () => 0 });
    expect(cache.pin("en/1", 100)).toBe(false);
    cache.set("en/1", wav(1));
    expect(cache.pin("en/1", 100)).toBe(true);
    cache.set("en/1", wav(1), 50);
    expect(cache.isPinned("en/1")).toBe(true);
    cache.set("en/2", wav(2), 300);
    cache.set("en/3", wav(3), 200);
    expect(["en/1", "en/2", "en/3"].map((k) => cache.isPinned(k))).toEqual([false, true, true]);
    expect(cache.get("en/1")).toEqual(wav(1));
  });
});

const tenant = (language: Tenant["floor"]["language"]) => ({ id: "t1", slug: "demo", floor: { language, readyClearMinutes: 10 } }) as unknown as Tenant;
const order = (status: BoardOrder["status"], cleared = false) => ({ number: 12, prefix: "K", status, cleared }) as BoardOrder;

/** A renderer whose restaurant t1's boards asked for clips in `used` (both languages by default). */
function harness(used: string[] = ["t1/en", "t1/zh-CN"]) {
  const rendered: [string, string, number][] = [];
  const voice = {
    ahead: (l: string, c: { prefix: string; number: number }, until: number) => rendered.push([l, `${c.prefix}${c.number}`, until]),
    boards: { uses: (tenantId: string, locale: string) => used.includes(`${tenantId}/${locale}`) },
  };
  const sent: AheadMessage[] = [];
  let hear: (m: unknown) => void = () => {};
  const relay: AheadRelay = { send: (m) => sent.push(m), onMessage: (h) => (hear = h) };
  const seen: string[] = [];
  const events = new Proxy({} as EventPublisher, { get: (_, name) => () => seen.push(String(name)) });
  const wrapped = withVoiceAhead(events, voice as unknown as VoiceRenderer, relay, () => 1_000);
  return { rendered, sent, hear: (m: unknown) => hear(m), seen, wrapped };
}

describe("withVoiceAhead", () => {
  it("renders a number made ready or called again here, in the restaurant's language first, and tells the other nodes", () => {
    const h = harness();
    h.wrapped.orderUpdated(tenant("zh-CN"), order("READY"));
    h.wrapped.orderCalled(tenant(null), order("READY"));
    const until = 1_000 + 11 * 60_000;
    expect(h.rendered).toEqual([
      ["zh-CN", "K12", until],
      ["en", "K12", until],
      ["en", "K12", until],
      ["zh-CN", "K12", until],
    ]);
    expect(h.sent).toEqual([
      { tenantId: "t1", prefix: "K", number: 12, locales: ["zh-CN", "en"], forMs: 11 * 60_000 },
      { tenantId: "t1", prefix: "K", number: 12, locales: ["en", "zh-CN"], forMs: 11 * 60_000 },
    ]);
    expect(h.seen).toEqual(["orderUpdated", "orderCalled"]);
  });

  it("renders only in the languages the restaurant's boards asked this node for clips in, and still tells the other nodes", () => {
    const h = harness(["t1/zh-CN", "t2/en"]);
    h.wrapped.orderUpdated(tenant("en"), order("READY"));
    expect(h.rendered).toEqual([["zh-CN", "K12", 1_000 + 11 * 60_000]]);
    expect(h.sent).toHaveLength(1);
    const none = harness([]);
    none.wrapped.orderCalled(tenant("en"), order("READY"));
    none.hear({ tenantId: "t1", prefix: "", number: 7, locales: ["en"], forMs: 60_000 });
    expect(none.rendered).toEqual([]);
  });

  it("renders nothing for other changes, and passes every event on", () => {
    const h = harness();
    h.wrapped.orderUpdated(tenant("en"), order("PLACED"));
    h.wrapped.orderUpdated(tenant("en"), order("COLLECTED"));
    h.wrapped.orderUpdated(tenant("en"), order("READY", true));
    h.wrapped.orderCreated(tenant("en"), order("PLACED"));
    h.wrapped.settingsChanged(tenant("en"));
    expect(h.rendered).toEqual([]);
    expect(h.sent).toEqual([]);
    expect(h.seen).toEqual(["orderUpdated", "orderUpdated", "orderUpdated", "orderCreated", "settingsChanged"]);
  });

  it("renders another node's well-formed message, and nothing of a malformed one", () => {
    const h = harness();
    h.hear({ tenantId: "t1", prefix: "", number: 7, locales: ["en"], forMs: 60_000 });
    for (const bad of [
      null,
      "x",
      { prefix: "", number: 7, locales: ["en"], forMs: 60_000 },
      { tenantId: "t1", prefix: "k", number: 7, locales: ["en"], forMs: 60_000 },
      { tenantId: "t1", prefix: "", number: 0, locales: ["en"], forMs: 60_000 },
      { tenantId: "t1", prefix: "", number: 7.5, locales: ["en"], forMs: 60_000 },
      { tenantId: "t1", prefix: "", number: 7, locales: ["fr"], forMs: 60_000 },
      { tenantId: "t1", prefix: "", number: 7, locales: ["en"], forMs: 2 * 24 * 60 * 60_000 },
    ]) {
      h.hear(bad);
    }
    expect(h.rendered).toEqual([["en", "7", 61_000]]);
    expect(h.sent).toEqual([]);
  });

  it("FallbackBoards: a restaurant and language asked for recently, for a week", () => {
    let now = 0;
    const boards = new FallbackBoards(() => now);
    expect(boards.uses("t1", "en")).toBe(false);
    boards.saw("t1", "en");
    now = 6 * 24 * 60 * 60_000;
    expect([boards.uses("t1", "en"), boards.uses("t1", "zh-CN"), boards.uses("t2", "en")]).toEqual([true, false, false]);
    now = 7 * 24 * 60 * 60_000;
    expect(boards.uses("t1", "en")).toBe(false);
  });

  it("localesFor: the restaurant's language, then the other; both when it has none", () => {
    expect(localesFor({ floor: { language: "zh-CN" } } as Tenant)).toEqual(["zh-CN", "en"]);
    expect(localesFor({ floor: { language: null } } as Tenant)).toEqual(["en", "zh-CN"]);
  });
});
