/**
 * The board's fallback voice over real HTTP: eSpeak NG renders a real WAV in its child
 * process, only of a number an open order of the restaurant holds; the second request for
 * the same clip comes from the cache; one render at a time per client address; bad input
 * is a 400 of the error contract, never a 500. Concurrent clients come from loopback
 * addresses of their own (127.0.x.y), as the server sees them.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { insertSeries, provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type Api, type OrderJson } from "../support/http";

// A server of its own: clips are cached per language and number for every restaurant of a
// node, so another file's clip of "en 1" would turn this file's first render into a hit.
let server: AppServer;
let baseUrl: string;
let call: Api;
let t: TestTenant;
/** A restaurant with a series "Kiosk" whose numbers show K (K1–K99) beside its default series (1, 2, 3…). */
let k: TestTenant;

interface Clip {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GET `path` from the client at `from` (default 127.0.0.1), on a connection of its own. */
function clip(path: string, from = "127.0.0.1", headers: Record<string, string> = {}): Promise<Clip> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: new URL(baseUrl).port, path, localAddress: from, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, bytes: Buffer.concat(chunks) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const error = (c: Clip) => (JSON.parse(c.bytes.toString("utf8")) as { error: { code: string; message: string } }).error;
const voice = (locale: string, n: number | string, slug = t.slug) => `/api/v1/orgs/${slug}/voice/${locale}/${n}.wav`;
const oldVoice = (locale: string, n: number | string) => `/api/v1/voice/${locale}/${n}.wav`;

async function place(): Promise<OrderJson> {
  return expectStatus(
    await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } }),
    201,
  );
}

async function move(o: OrderJson, status: string): Promise<void> {
  expectStatus(await call("POST", `/api/v1/orgs/${t.slug}/orders/${o.id}/status`, { key: t.apiKeys.kitchen, json: { status } }), 200);
}

/** Asserts a PCM WAV file: RIFF/WAVE header, a fmt and a data chunk, and enough samples for a spoken phrase. */
function expectWav(c: Clip) {
  expect({ status: c.status, type: c.headers.get("content-type") }).toEqual({ status: 200, type: "audio/wav" });
  const bytes = c.bytes;
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
  expect(bytes.subarray(8, 12).toString("latin1")).toBe("WAVE");
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("fmt ");
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  const sampleRate = bytes.readUInt32LE(24);
  expect(sampleRate).toBe(22_050); // eSpeak NG's native rate
  // More than half a second of 16-bit mono audio: a word, not a click.
  expect(bytes.length).toBeGreaterThan(sampleRate);
}

function expectRefusal(c: Clip, status: number, code: string) {
  expect({ status: c.status, code: error(c).code }).toEqual({ status, code });
  expect(error(c).message.length).toBeGreaterThan(5);
  // Never kept by a browser or proxy: the number may be held tomorrow, the render may be free in a second.
  expect(c.headers.get("cache-control")).toBe("no-store");
}

beforeAll(async () => {
  const [slug, kSlug] = [uniqueSlug("voice"), uniqueSlug("voice-k")];
  const made = await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug), stableDaySpec(kSlug)]);
  [t, k] = [made[slug]!, made[kSlug]!];
  // Before the server starts: a node reads a restaurant's series with the restaurant, once.
  await insertSeries(inject("databaseUrl"), k.id, { name: "Kiosk", prefix: "K", first: 1, last: 99 });
  server = await startAppServer({ databaseUrl: inject("databaseUrl"), keyPrefix: testKeyPrefix("voice"), env: SHARED_SERVER_ENV });
  baseUrl = server.url;
  call = apiClient(baseUrl);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("GET /api/v1/orgs/{slug}/voice/{locale}/{number}.wav", () => {
  for (const locale of ["en", "zh-CN"] as const) {
    it(`renders ${locale} of a number an open order holds as a WAV, then serves it from the cache`, async () => {
      const o = await place();
      const first = await clip(voice(locale, o.number));
      expectWav(first);
      expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(first.headers.get("x-voice-cache")).toBe("miss");

      const second = await clip(voice(locale, o.number));
      expect(second.status).toBe(200);
      expect(second.headers.get("x-voice-cache")).toBe("hit");
      expect(second.bytes.equals(first.bytes)).toBe(true);
    });
  }

  it("says different things for different numbers and languages", async () => {
    const [a, b] = [await place(), await place()];
    const [enA, enB, zhA] = await Promise.all([
      clip(voice("en", a.number), "127.0.4.1"),
      clip(voice("en", b.number), "127.0.4.2"),
      clip(voice("zh-CN", a.number), "127.0.4.3"),
    ]);
    for (const c of [enA, enB, zhA]) expectWav(c);
    expect(enA.bytes.equals(enB.bytes)).toBe(false);
    expect(enA.bytes.equals(zhA.bytes)).toBe(false);
  });

  it("answers clients asking for one clip at once with one render (the rest wait for it)", async () => {
    const o = await place();
    const all = await Promise.all(Array.from({ length: 5 }, (_, i) => clip(voice("en", o.number), `127.0.5.${i + 1}`)));
    for (const c of all) {
      expect(c.status).toBe(200);
      expect(c.bytes.equals(all[0]!.bytes)).toBe(true);
    }
    expect((await clip(voice("en", o.number))).headers.get("x-voice-cache")).toBe("hit");
  });

  it("one render in flight per address: a second miss at the same time is 429 with Retry-After: 1, not queued", async () => {
    const [a, b] = [await place(), await place()];
    const [first, second] = await Promise.all([clip(voice("en", a.number), "127.0.6.1"), clip(voice("en", b.number), "127.0.6.1")]);
    expect([first.status, second.status].sort()).toEqual([200, 429]);
    const refused = first.status === 429 ? first : second;
    expectRefusal(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("1");
    // Another address is not held back meanwhile, and once the render is done the same address may ask again.
    expectWav(await clip(voice("zh-CN", a.number), "127.0.6.2"));
    expectWav(await clip(refused === first ? voice("en", a.number) : voice("en", b.number), "127.0.6.1"));
  });

  it("a number no open order holds is a 404, and so is one whose order was collected or cancelled (unless its clip is cached)", async () => {
    const [collected, cancelled] = [await place(), await place()];
    expectWav(await clip(voice("en", collected.number)));
    const nobody = 90_000_000 + Math.floor(Math.random() * 9_000_000);
    const notHeld = await clip(voice("en", nobody));
    expectRefusal(notHeld, 404, "NOT_FOUND");
    expect(error(notHeld).message).toContain(`number ${nobody}`);

    // The restaurant's boards have asked for clips in both languages: a number made ready has
    // its clips rendered ahead (decision 0036), and the board's request joins or finds them.
    expectWav(await clip(voice("zh-CN", cancelled.number)));
    await move(collected, "READY");
    expect(["board", "hit"]).toContain((await clip(voice("zh-CN", collected.number))).headers.get("x-voice-cache"));
    await move(collected, "COLLECTED");
    await move(cancelled, "CANCELLED");
    expectRefusal(await clip(voice("en", cancelled.number)), 404, "NOT_FOUND");
    expectRefusal(await clip(voice("zh-CN", nobody)), 404, "NOT_FOUND");
    // A clip rendered already costs nothing: it is served whoever asks, the number collected or not.
    for (const locale of ["en", "zh-CN"]) expect((await clip(voice(locale, collected.number))).headers.get("x-voice-cache")).toBe("hit");
  });

  it("an unknown restaurant is a 404", async () => {
    expectRefusal(await clip(voice("en", 1, uniqueSlug("nobody"))), 404, "NOT_FOUND");
  });
});

describe("GET /api/v1/orgs/{slug}/voice/{locale}/{prefix}{number}.wav: a number of a series with a prefix (decision 0027)", () => {
  type Shown = OrderJson & { prefix: string; display: string };
  const placeIn = async (series?: string): Promise<Shown> =>
    expectStatus(
      await call<Shown>("POST", `/api/v1/orgs/${k.slug}/orders`, {
        key: k.apiKeys.cashier,
        json: { items: [{ name: "Tea", qty: 1 }], ...(series ? { series } : {}) },
      }),
      201,
    );

  it("renders K1 while an open order shows K1, as a clip of its own (not the clip of 1); K2 is a 404 while only 2 is held", async () => {
    const plain = await placeIn();
    const kiosk = await placeIn("Kiosk");
    const plain2 = await placeIn();
    expect([plain.display, kiosk.display, plain2.display]).toEqual(["1", "K1", "2"]);

    // 1 first: if the cache knew clips by number only, K1 would now be a hit of the same audio.
    const one = await clip(voice("en", "1", k.slug), "127.0.8.1");
    expectWav(one);
    const k1 = await clip(voice("en", "K1", k.slug), "127.0.8.1");
    expectWav(k1);
    expect(k1.headers.get("x-voice-cache")).toBe("miss");
    expect(k1.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(k1.bytes.equals(one.bytes)).toBe(false);
    // "Number K, one" is longer than "Number one".
    expect(k1.bytes.length).toBeGreaterThan(one.bytes.length);
    expect((await clip(voice("en", "K1", k.slug), "127.0.8.1")).headers.get("x-voice-cache")).toBe("hit");

    // 2 is held without a prefix: K2 is not (the prefix is part of the number held).
    const k2 = await clip(voice("en", "K2", k.slug), "127.0.8.2");
    expectRefusal(k2, 404, "NOT_FOUND");
    expect(error(k2).message).toContain("number K2");
    expectWav(await clip(voice("en", "2", k.slug), "127.0.8.2"));
    // Another prefix, and a restaurant without a K series, hold nothing.
    expectRefusal(await clip(voice("en", "D1", k.slug), "127.0.8.2"), 404, "NOT_FOUND");
    expectRefusal(await clip(voice("zh-CN", "K1"), "127.0.8.2"), 404, "NOT_FOUND");

    // Collected: K1 is no longer rendered in a language it was not said in yet; the clip made stays cached.
    for (const status of ["READY", "COLLECTED"]) {
      expectStatus(await call("POST", `/api/v1/orgs/${k.slug}/orders/${kiosk.id}/status`, { key: k.apiKeys.kitchen, json: { status } }), 200);
    }
    expectRefusal(await clip(voice("zh-CN", "K1", k.slug), "127.0.8.3"), 404, "NOT_FOUND");
    expect((await clip(voice("en", "K1", k.slug), "127.0.8.3")).headers.get("x-voice-cache")).toBe("hit");

    // In Chinese too ("K 二号").
    const next = await placeIn("Kiosk");
    expect(next.display).toBe("K2");
    const k2zh = await clip(voice("zh-CN", "K2", k.slug), "127.0.8.4");
    expectWav(k2zh);
    expect(k2zh.bytes.equals(k1.bytes)).toBe(false);
  });

  it.each([
    ["a prefix in lower case (one address per clip)", "k12.wav"],
    ["a prefix of four letters", "KKKK12.wav"],
    ["a prefix after the number", "12K.wav"],
    ["a prefix alone", "K.wav"],
    ["a prefix and zero", "K0.wav"],
  ])("400 BAD_INPUT for %s", async (_what, file) => {
    const err = expectApiError(await call("GET", `/api/v1/orgs/${k.slug}/voice/en/${file}`), 400, "BAD_INPUT");
    expect(err.message).toContain("{prefix}{number}.wav");
  });

  it("the deprecated route stays numeric: K12.wav is a 400 there", async () => {
    const err = expectApiError(await call("GET", "/api/v1/voice/en/K12.wav"), 400, "BAD_INPUT");
    expect(err.message).toContain("{number}.wav");
  });
});

describe("GET /api/v1/voice/{locale}/{number}.wav (deprecated: board pages loaded before the restaurant's route)", () => {
  it("serves a cached clip; renders a number only for the board page in Referer that holds it; else 404 naming the new route", async () => {
    const o = await place();
    const board = { referer: `${baseUrl}/${t.slug}/board` };
    expectRefusal(await clip(oldVoice("en", o.number)), 404, "NOT_FOUND");
    expect(error(await clip(oldVoice("en", o.number))).message).toContain("/api/v1/orgs/{slug}/voice/");
    const rendered = await clip(oldVoice("en", o.number), "127.0.7.1", board);
    expectWav(rendered);
    expect(rendered.headers.get("x-voice-cache")).toBe("miss");
    // Now cached: anyone gets it, on either route.
    expect((await clip(oldVoice("en", o.number))).headers.get("x-voice-cache")).toBe("hit");
    expect((await clip(voice("en", o.number))).headers.get("x-voice-cache")).toBe("hit");
    // The board page's restaurant holds no such number.
    expectRefusal(await clip(oldVoice("en", 98_765_432), "127.0.7.1", board), 404, "NOT_FOUND");
  });
});

describe.each([
  ["the restaurant's route", (locale: string, n: string) => `/api/v1/orgs/${t.slug}/voice/${locale}/${n}`],
  ["the deprecated route", (locale: string, n: string) => `/api/v1/voice/${locale}/${n}`],
])("400 BAD_INPUT on %s", (_route, path) => {
  it.each([
    ["an unknown language", "fr", "42.wav"],
    ["a language in the wrong case", "zh-cn", "42.wav"],
    ["a number that is not a number", "en", "forty.wav"],
    ["zero", "en", "0.wav"],
    ["a number too long", "en", "123456789.wav"],
    ["a negative number", "en", "-3.wav"],
    ["another extension", "en", "42.mp3"],
    ["no extension", "en", "42"],
    ["a text injection", "en", "%2D%2Dhelp.wav"],
  ])("for %s", async (_what, locale, n) => {
    const err = expectApiError(await call("GET", path(locale, n)), 400, "BAD_INPUT");
    expect(err.message.length).toBeGreaterThan(5);
  });
});
