/**
 * The board's fallback voice under a flood of *held* numbers (issue #35, decision 0036):
 * 40 open orders really hold 1..40, and 60 strangers — each on its own loopback address,
 * two requests at a time — ask for the clips of the others, which are all renders the
 * route must allow. When an order becomes ready, its clips are rendered ahead in the
 * board's lane, so the board's request for it is answered from that render or the cache,
 * never refused and never queued behind strangers; the strangers meanwhile are refused
 * past the bounds: one render at a time per address (429), a short public queue (503).
 * A server of its own, real eSpeak NG.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getFrom, type LoopbackAnswer as Answer } from "../support/raw-http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type Api, type OrderJson } from "../support/http";
import { eventually } from "../support/until";

const databaseUrl = inject("databaseUrl");
const HELD = 40;
const CLIENTS = 60;

let server: AppServer;
let call: Api;
let t: TestTenant;

/** GET `path` from the client at `from` (a loopback address of its own), on a connection of its own. */
const get = (from: string, path: string, headers?: Record<string, string>) => getFrom(server.port, from, path, headers);

const errorCode = (a: Answer) => (JSON.parse(a.body.toString("utf8")) as { error: { code: string } }).error.code;
const clipPath = (locale: string, n: number) => `/api/v1/orgs/${t.slug}/voice/${locale}/${n}.wav`;

beforeAll(async () => {
  const slug = uniqueSlug("voice-held");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  // The public per-address limit would count the flood's requests, not its renders: out of the way.
  server = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("voice-held"), env: { PUBLIC_REQUESTS_PER_MINUTE: "1000000" } });
  call = apiClient(server.url);
}, 120_000);

afterAll(async () => {
  const code = await server?.stop();
  if (code !== undefined && code !== 0) console.error(`voice-held server exited with ${code}:\n${server?.output().slice(-4000)}`);
});

describe("a flood of clips of held numbers", () => {
  it(`${CLIENTS} clients asking for ${HELD} held numbers' clips do not keep a board from the clip of the number just made ready`, async () => {
    const orders: OrderJson[] = [];
    for (let i = 0; i < HELD; i++) {
      orders.push(
        expectStatus(
          await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } }),
          201,
        ),
      );
    }
    expect(orders.map((o) => o.number)).toEqual(Array.from({ length: HELD }, (_, i) => i + 1));
    const [ready, warm] = [orders[HELD - 1]!, orders[HELD - 2]!];
    // The restaurant's board has no device voice: it asked for a clip in each language
    // before (which also warms the voice process, so the flood meets renders, not its start).
    for (const locale of ["en", "zh-CN"]) expect((await get("127.0.3.9", clipPath(locale, warm.number))).status).toBe(200);

    // Strangers: each address cycles through the held numbers but the one about to be made
    // ready (whose clip is therefore not cached when the board asks), two requests at a time.
    const others = orders.filter((o) => o !== ready && o !== warm).map((o) => o.number);
    const answers: (Answer & { from: string })[] = [];
    let stop = false;
    const worker = async (c: number, w: number) => {
      const from = `127.0.${20 + Math.floor(c / 200)}.${(c % 200) + 1}`;
      for (let i = c * 2 + w; !stop; i += 7) {
        const locale = i % 2 ? "zh-CN" : "en";
        answers.push({ from, ...(await get(from, clipPath(locale, others[i % others.length]!))) });
      }
    };
    const flood = Array.from({ length: CLIENTS * 2 }, (_, k) => worker(Math.floor(k / 2), k % 2));
    // The flood has filled what strangers may queue.
    await eventually(
      "a stranger refused as busy",
      () => Promise.resolve(answers.filter((a) => a.status === 503).length),
      (busy) => busy > 0,
      120_000,
    );

    expectStatus(await call("POST", `/api/v1/orgs/${t.slug}/orders/${ready.id}/status`, { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);
    // A board (fallback voice in each language) asks at once, as on the order:updated event.
    const boards = await Promise.all([get("127.0.3.1", clipPath("zh-CN", ready.number)), get("127.0.3.2", clipPath("en", ready.number))]);
    const again = await get("127.0.3.3", clipPath("zh-CN", ready.number));
    stop = true;
    await Promise.all(flood);

    for (const board of [...boards, again]) {
      expect({ status: board.status, type: board.headers["content-type"] }).toEqual({ status: 200, type: "audio/wav" });
      expect(board.body.subarray(0, 4).toString("latin1")).toBe("RIFF");
    }
    // Rendered ahead in the board's lane (or already done), never for the board's request in the strangers' queue.
    for (const board of boards) expect(["board", "hit"]).toContain(board.headers["x-voice-cache"]);
    expect(again.headers["x-voice-cache"]).toBe("hit");
    expect(again.body.equals(boards[0].body)).toBe(true);

    // Strangers were refused past their bounds: one render at a time per address (429,
    // Retry-After), a short public queue for all (503, Retry-After) — and nothing else.
    const byStatus = (s: number) => answers.filter((a) => a.status === s);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200, 429, 503]));
    expect(new Set(byStatus(429).map(errorCode))).toEqual(new Set(["RATE_LIMITED"]));
    expect(new Set(byStatus(503).map(errorCode))).toEqual(new Set(["UNAVAILABLE"]));
    for (const refused of [...byStatus(429), ...byStatus(503)]) {
      expect({ retryAfter: refused.headers["retry-after"], cache: refused.headers["cache-control"] }).toEqual({ retryAfter: "1", cache: "no-store" });
    }
  }, 180_000);
});
