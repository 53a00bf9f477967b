/**
 * The failed-authentication check that runs before every authenticated request, on the real
 * Redis: `exhausted` (one GET) agrees with rate-limiter-flexible's own `get` (a MULTI), is
 * shared by two nodes, falls back to the node's memory count when Redis is down or failing,
 * and `beforeAuthentication` refuses with the wait once the address has used its failures.
 */
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { GuardedLimiter, Throttles } from "@/lib/server/http/throttles.server";
import { testKeyPrefix, TEST_REDIS_URL } from "../support/app-server";
import { freePort } from "../support/ports";

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;
const POINTS = 3;

describe("the failed-authentication check before authentication", () => {
  const redis = createRedis(TEST_REDIS_URL, silent, "throttles-test", { failFast: true });
  const prefix = `${testKeyPrefix("throttles")}rl:authfail`;
  // A fail-fast client refuses commands until connected (they would count in memory).
  beforeAll(async () => {
    if (redis.status !== "ready") await once(redis, "ready");
  });
  afterAll(() => redis.disconnect());

  it("is false until the key has spent its points, then true on every node; it agrees with the library's get", async () => {
    const node = new GuardedLimiter(redis, prefix, POINTS, () => true);
    const other = new GuardedLimiter(redis, prefix, POINTS, () => true);
    const seen: [number, boolean, number | undefined][] = [];
    for (let spent = 0; spent <= POINTS; spent++) {
      seen.push([spent, await other.exhausted("10.0.0.1"), (await node.get("10.0.0.1"))?.consumedPoints]);
      await node.penalty("10.0.0.1");
    }
    expect(seen).toEqual([
      [0, false, undefined],
      [1, false, 1],
      [2, false, 2],
      [3, true, 3],
    ]);
    expect(await node.exhausted("10.0.0.2")).toBe(false);
  });

  it("while Redis is known to be down, counts in this node's memory", async () => {
    const node = new GuardedLimiter(redis, `${prefix}-down`, POINTS, () => false);
    for (let i = 0; i < POINTS; i++) await node.penalty("10.0.0.3");
    expect(await node.exhausted("10.0.0.3")).toBe(true);
    expect(await redis.exists(`${prefix}-down:10.0.0.3`)).toBe(0);
  });

  it("when a Redis call fails, asks this node's memory count (the library's insurance) instead of letting the address through", async () => {
    const dead = createRedis(`redis://127.0.0.1:${await freePort()}`, silent, "throttles-dead", { failFast: true });
    try {
      const node = new GuardedLimiter(dead, prefix, POINTS, () => true);
      for (let i = 0; i < POINTS; i++) await node.penalty("10.0.0.4");
      expect(await node.exhausted("10.0.0.4")).toBe(true);
      expect(await node.exhausted("10.0.0.5")).toBe(false);
    } finally {
      dead.disconnect();
    }
  });

  it("beforeAuthentication lets the address through until its failures are used, then refuses it with the seconds to wait", async () => {
    const env = {
      REDIS_KEY_PREFIX: testKeyPrefix("throttles-edge"),
      API_RATE_LIMIT_PER_MINUTE: 100,
      VOICE_RATE_LIMIT_PER_MINUTE: 100,
      AUTH_FAILURES_PER_MINUTE: POINTS,
      SIGN_IN_CHECKS_PER_ROLE: 4,
      PUBLIC_REQUESTS_PER_MINUTE: 100,
      SOCKET_HANDSHAKES_PER_MINUTE: 100,
      STAFF_ACTIONS_PER_MINUTE: 100,
      STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE: 100,
      REPRINTS_PER_ORDER: 5,
      REPRINTS_PER_PRINTER_PER_MINUTE: 60,
      PROBE_REQUESTS_PER_SECOND: 20,
    };
    const throttles = new Throttles(redis, env, () => true);
    for (let i = 0; i < POINTS; i++) {
      await expect(throttles.beforeAuthentication("10.0.0.6")).resolves.toBeUndefined();
      await throttles.failed("10.0.0.6");
    }
    const refused = await throttles.beforeAuthentication("10.0.0.6").then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
    const retryAfter = isAppError(refused) ? (refused.details as { retryAfter: number }).retryAfter : 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expect(throttles.beforeAuthentication("10.0.0.7")).resolves.toBeUndefined();
  });

  it("sign-in caps only the checks of one role running at once on a node: the next is told to retry, and a finished check makes room", async () => {
    const env = {
      REDIS_KEY_PREFIX: testKeyPrefix("throttles-checks"),
      API_RATE_LIMIT_PER_MINUTE: 100,
      VOICE_RATE_LIMIT_PER_MINUTE: 100,
      AUTH_FAILURES_PER_MINUTE: 100,
      SIGN_IN_CHECKS_PER_ROLE: 2,
      PUBLIC_REQUESTS_PER_MINUTE: 100,
      SOCKET_HANDSHAKES_PER_MINUTE: 100,
      STAFF_ACTIONS_PER_MINUTE: 100,
      STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE: 100,
      REPRINTS_PER_ORDER: 5,
      REPRINTS_PER_PRINTER_PER_MINUTE: 60,
      PROBE_REQUESTS_PER_SECOND: 20,
    };
    const throttles = new Throttles(redis, env, () => true);
    let release!: () => void;
    const slow = new Promise<string>((r) => (release = () => r("ok")));
    const running = [throttles.signIn("t1", "KITCHEN", "10.0.1.1", () => slow), throttles.signIn("t1", "KITCHEN", "10.0.1.2", () => slow)];
    await new Promise((r) => setTimeout(r, 50));
    const busy = await throttles
      .signIn("t1", "KITCHEN", "10.0.1.3", async () => "ok")
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isAppError(busy) && busy.code === "RATE_LIMITED" && busy.reason === "busy").toBe(true);
    // Another role and another restaurant are not affected.
    await expect(throttles.signIn("t1", "MANAGER", "10.0.1.4", async () => "ok")).resolves.toBe("ok");
    await expect(throttles.signIn("t2", "KITCHEN", "10.0.1.5", async () => "ok")).resolves.toBe("ok");
    release();
    await expect(Promise.all(running)).resolves.toEqual(["ok", "ok"]);
    await expect(throttles.signIn("t1", "KITCHEN", "10.0.1.3", async () => "ok")).resolves.toBe("ok");
  });
});
