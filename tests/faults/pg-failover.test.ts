/**
 * Issue #27: a PostgreSQL failover in the middle of a burst. The test's own primary and
 * streaming standby (tests/support/pg-pair.ts) replicate through a link that delays the
 * primary's bytes; the app reaches the database through one address. Into the burst, ¾ of
 * the link's delay after the counter reserved a block (so that an asynchronous standby
 * misses that ceiling while numbers of the block are being answered: the moment the issue
 * describes, which a crash at a random moment only sometimes hits), the primary is crashed
 * (immediate stop), the standby promoted and the address moved to it about 0.25 s after the
 * crash, as a managed service's failover does; the burst goes on and the app must recover
 * by itself.
 *
 *  - synchronous standby: nothing answered 201 is lost, and no number is answered twice;
 *  - asynchronous standby (100 and 400 ms away): no number is answered twice; orders
 *    answered 201 and then lost are what asynchronous replication costs: counted in the
 *    report, not violations;
 *  - the same with Redis killed -9 at the crash and restarted empty a second later;
 *  - before the crash, /api/health says which replication the node runs on.
 *
 * "Answered twice" is judged from the clients' 201 answers (numbersAnsweredTwice): a lost
 * order's customer still holds its number. The burst orders into the default series only,
 * whose numbers never come round within a shift.
 */
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { BLOCK_SIZE } from "@/lib/core/numbering";
import { blockReserved, lastIssuedIn } from "../support/counter-state";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { PgPair, type PgPairOptions } from "../support/pg-pair";
import { sleep } from "../support/redis-process";
import { BURST } from "./burst";

const CRASH_AT_MS = 5_000;
/** The crash comes this share of the link's delay after a block's reservation: it is lost, and numbers of the block are answered meanwhile. */
const CRASH_INTO_LINK_DELAY = 0.75;
/** From the crash to the address moving, as HAProxy/PgBouncer or a DNS flip takes. */
const MOVE_AFTER_MS = 250;
/** Redis, killed at the crash, is back (empty) this long after it. */
const REDIS_BACK_AFTER_MS = 1_000;
/**
 * A till retries a refused order (same Idempotency-Key) after this long: once the address has
 * moved. An order in flight at the crash may be stored although it was answered 503 (its
 * commit reached the standby, its acknowledgement never came back); the retry then finds it.
 */
const RETRY_DELAY_MS = 500;

interface FailoverCase extends PgPairOptions {
  /** Kill -9 Redis at the crash and restart it empty REDIS_BACK_AFTER_MS later. */
  killRedis?: boolean;
}

function failover(title: string, c: FailoverCase): void {
  describe(title, () => {
    let pair: PgPair | undefined;
    const setup = rigOnOneRedis(c.label, {
      database: async (label) => {
        pair = await PgPair.start({ label, linkDelayMs: c.linkDelayMs, synchronous: c.synchronous });
        return pair.database;
      },
    });

    const promise = c.synchronous ? "nothing answered 201 lost, no number answered twice" : "no number answered twice; what was lost is counted";
    it(promise, async () => {
      const pg = pair!;
      let lagAtCrash: number | null = null;
      let replicationBefore: string | undefined;
      const report = await runFaultScenario({
        rig: setup.rig,
        name: `pg failover: ${title}`,
        faults: c.killRedis ? 2 : 1,
        load: { ...BURST, durationMs: 12_000, retryDelayMs: RETRY_DELAY_MS },
        counterRedis: () => setup.redis,
        // A promoted asynchronous standby lost acknowledged writes: numbers it no longer knows were handed out may meet stored ones.
        allowIndexCollisions: !c.synchronous,
        checks: { lostAllowed: !c.synchronous },
        inject: async (ctx) => {
          await ctx.at(CRASH_AT_MS);
          lagAtCrash = await pg.lagBytes();
          // What the node says it runs on, before the crash (decision 0028).
          replicationBefore = ((await (await fetch(`${setup.rig.apps[0]!.url}/api/health`)).json()) as { replication?: string }).replication;
          // One connection, polled every 2 ms: the crash must come within the link's delay of the reservation.
          const watcher = new Redis(setup.redis.url);
          let reservedUpTo: number | undefined;
          let issuedUpTo: number | undefined;
          try {
            reservedUpTo = await blockReserved(watcher, setup.rig.counterKey, 2_000);
            await sleep(c.linkDelayMs * CRASH_INTO_LINK_DELAY);
            issuedUpTo = lastIssuedIn(await watcher.hgetall(setup.rig.counterKey));
          } finally {
            watcher.disconnect();
          }
          const crashedAt = Date.now();
          await Promise.all([pg.crashPrimary(), c.killRedis ? setup.redis.kill9() : null]);
          // Numbers of that block handed out before the crash are answered numbers whose ceiling the standby misses.
          const reservation =
            reservedUpTo === undefined
              ? "with no block reserved within 2 s"
              : `${c.linkDelayMs * CRASH_INTO_LINK_DELAY} ms after the counter reserved #${reservedUpTo - BLOCK_SIZE + 1}–#${reservedUpTo} (it had handed out up to #${issuedUpTo ?? "?"})`;
          ctx.mark(
            `primary crashed (immediate stop) ${reservation}${c.killRedis ? ", redis killed -9" : ""}; the standby was ${lagAtCrash ?? "?"} bytes of WAL behind shortly before`,
          );
          ctx.mark(`standby promoted in ${await pg.promoteStandby()} ms`);
          await sleep(crashedAt + MOVE_AFTER_MS - Date.now());
          pg.front.moveTo(pg.standby.port);
          ctx.mark("database address moved to the standby");
          if (c.killRedis) {
            await sleep(crashedAt + REDIS_BACK_AFTER_MS - Date.now());
            await setup.redis.start();
            ctx.mark("redis restarted empty");
          }
        },
        // Asynchronous: the case means something only if the standby was behind when the primary died.
        extraChecks: () => (c.synchronous || (lagAtCrash ?? 0) > 0 ? [] : [`precondition: the standby was not behind at the crash (lag ${lagAtCrash})`]),
      });
      expect(
        report.answeredTwice.map((a) => a.number),
        report.text,
      ).toEqual([]);
      expect(replicationBefore, report.text).toBe(c.synchronous ? "sync" : "async");
      if (c.synchronous) expect(report.lost, report.text).toBe(0);
      expect(report.violations, report.text).toEqual([]);
    });
  });
}

failover("synchronous standby 100 ms away", { label: "pg-sync-100", synchronous: true, linkDelayMs: 100 });
failover("asynchronous standby 100 ms away", { label: "pg-async-100", synchronous: false, linkDelayMs: 100 });
failover("asynchronous standby 400 ms away", { label: "pg-async-400", synchronous: false, linkDelayMs: 400 });
failover("asynchronous standby 100 ms away, Redis killed -9 and back empty during the failover", {
  label: "pg-async-redis",
  synchronous: false,
  linkDelayMs: 100,
  killRedis: true,
});
