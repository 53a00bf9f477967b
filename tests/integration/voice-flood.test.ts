/**
 * The board's fallback voice under a flood (issue #26, item 4): one node's renders are
 * shared by every restaurant, so 60 clients — each on its own loopback address, as the
 * server sees them — asking for clips of numbers nobody holds (and of held ones) must not
 * keep a board from its clip of a number being called. A server of its own, real eSpeak NG.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getFrom, type LoopbackAnswer as Answer } from "../support/raw-http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type Api, type OrderJson } from "../support/http";

const databaseUrl = inject("databaseUrl");
const CLIENTS = 60;

let server: AppServer;
let call: Api;
let t: TestTenant;

/** GET `path` from the client at `from` (a loopback address of its own), on a connection of its own. */
const get = (from: string, path: string, headers?: Record<string, string>) => getFrom(server.port, from, path, headers);

const errorCode = (a: Answer) => (JSON.parse(a.body.toString("utf8")) as { error: { code: string } }).error.code;

async function place(): Promise<OrderJson> {
  return expectStatus(
    await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } }),
    201,
  );
}

beforeAll(async () => {
  const slug = uniqueSlug("voice-flood");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  server = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("voice-flood") });
  call = apiClient(server.url);
}, 120_000);

afterAll(async () => {
  const code = await server?.stop();
  if (code !== undefined && code !== 0) console.error(`voice-flood server exited with ${code}:\n${server?.output().slice(-4000)}`);
});

describe("a voice flood from many addresses", () => {
  it(`${CLIENTS} clients asking for numbers nobody holds (and held ones) do not keep a board from the clip of its number`, async () => {
    const called = await place();
    const other = await place();
    const scoped = (n: number, locale = "en") => `/api/v1/orgs/${t.slug}/voice/${locale}/${n}.wav`;
    const old = (n: number, locale = "en") => `/api/v1/voice/${locale}/${n}.wav`;
    const boardPage = { referer: `${server.url}/${t.slug}/board` };
    // Warm the voice process, so the flood meets renders, not the child's start.
    expect((await get("127.0.0.1", old(other.number, "zh-CN"), boardPage)).status).toBe(200);

    const flood: { what: "not held" | "held"; answer: Promise<Answer> }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const from = `127.0.${10 + Math.floor(i / 200)}.${(i % 200) + 1}`;
      const nobody = 5_000 + i * 3;
      flood.push({ what: "not held", answer: get(from, scoped(nobody)) });
      flood.push({ what: "not held", answer: get(from, old(nobody + 1)) });
      flood.push({ what: "not held", answer: get(from, old(nobody + 2, "zh-CN")) });
      // Held numbers, on the old route with a board page's Referer (anyone can send one: it only names the restaurant).
      const locale = i % 4 < 2 ? "en" : "zh-CN";
      flood.push({ what: "held", answer: i % 2 ? get(from, scoped(other.number, locale)) : get(from, old(other.number, locale), boardPage) });
    }
    // The board asks while the flood is being answered (half of it is): an old board page (its Referer names it) and a new one.
    let answered = 0;
    await new Promise<void>((resolve) => {
      for (const f of flood) void f.answer.finally(() => ++answered >= flood.length / 2 && resolve());
    });
    const [oldBoard, newBoard] = await Promise.all([get("127.0.3.1", old(called.number), boardPage), get("127.0.3.2", scoped(called.number, "zh-CN"))]);
    const answers = await Promise.all(flood.map(async (f) => ({ what: f.what, ...(await f.answer) })));

    for (const board of [oldBoard, newBoard]) {
      expect({ status: board.status, type: board.headers["content-type"] }).toEqual({ status: 200, type: "audio/wav" });
      expect(board.body.subarray(0, 4).toString("latin1")).toBe("RIFF");
    }
    // Nothing was refused for being busy; a number nobody holds was never rendered.
    const notHeld = answers.filter((a) => a.what === "not held");
    expect(new Set(notHeld.map((a) => a.status))).toEqual(new Set([404]));
    expect(new Set(notHeld.map(errorCode))).toEqual(new Set(["NOT_FOUND"]));
    expect(new Set(notHeld.map((a) => a.headers["cache-control"]))).toEqual(new Set(["no-store"]));
    // Held numbers: one render each, which every client asking joins.
    const held = answers.filter((a) => a.what === "held");
    expect(new Set(held.map((a) => a.status))).toEqual(new Set([200]));
  });
});
