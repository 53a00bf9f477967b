/**
 * The floor under the order path: a node:http server doing only what an order must do —
 * read the JSON body, take a number from Redis (INCR), INSERT the row into PostgreSQL,
 * answer the row as JSON — with no auth, validation, limits, logs, broadcast or framework.
 * Its INCRs share a round trip per turn (auto-pipelining) and its INSERTs one statement per
 * turn, as the app's do (decision 0020). api.ts runs it in its own process beside the app:
 * no implementation on this machine can beat it, so orders ÷ floor is what the app's own
 * work costs.
 *
 *   tsx scripts/bench/floor-server.ts <databaseUrl> <redisUrl> <tenantId> <counterKey>   # prints its port
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";

const [databaseUrl, redisUrl, tenantId, counterKey] = process.argv.slice(2) as [string, string, string, string];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const redis = new Redis(redisUrl, { enableAutoPipelining: true });

interface Pending {
  id: string;
  number: number;
  items: string;
  note: string | null;
  settle: (row: unknown, error?: Error) => void;
}
let queued: Pending[] = [];

/** The turn's rows as one INSERT. */
function flush(): void {
  const batch = queued;
  queued = [];
  pool
    .query({
      name: "floor-insert-orders",
      text: `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, note, channel)
SELECT id, $2::uuid, CURRENT_DATE, 1, number, items, note, 'api' FROM unnest($1::uuid[], $3::int[], $4::jsonb[], $5::text[]) AS r(id, number, items, note)
RETURNING *`,
      values: [batch.map((p) => p.id), tenantId, batch.map((p) => p.number), batch.map((p) => p.items), batch.map((p) => p.note)],
    })
    .then(
      ({ rows }) => {
        const byId = new Map(rows.map((row: { id: string }) => [row.id, row]));
        for (const p of batch) p.settle(byId.get(p.id));
      },
      (e: unknown) => batch.forEach((p) => p.settle(undefined, e instanceof Error ? e : new Error(String(e)))),
    );
}

async function placeOrder(body: string): Promise<unknown> {
  const order = JSON.parse(body) as { items: unknown; note?: string };
  const number = await redis.incr(counterKey);
  return new Promise((resolve, reject) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push({ id: randomUUID(), number, items: JSON.stringify(order.items), note: order.note ?? null, settle: (row, e) => (e ? reject(e) : resolve(row)) });
  });
}

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      placeOrder(Buffer.concat(chunks).toString()).then(
        (row) => {
          res.writeHead(201, { "content-type": "application/json" });
          res.end(JSON.stringify(row));
        },
        (e: unknown) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: String(e) }));
        },
      );
    });
  })
  .listen(0, "127.0.0.1", function (this: http.Server) {
    console.log((this.address() as { port: number }).port);
  });

// Stopped by api.ts: its one Redis key goes with it.
process.on("SIGTERM", () => void redis.del(counterKey).finally(() => process.exit(0)));
