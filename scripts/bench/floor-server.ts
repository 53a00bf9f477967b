/**
 * The floor under the order path: a node:http server doing only what an order must do —
 * read the JSON body, take a number from Redis (INCR), INSERT the row into PostgreSQL,
 * answer the row as JSON — with no auth, validation, limits, logs, broadcast or framework.
 * api.ts runs it in its own process beside the app: no implementation on this machine can
 * beat it, so orders ÷ floor is what the app's own work costs.
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

async function placeOrder(body: string): Promise<unknown> {
  const order = JSON.parse(body) as { items: unknown; note?: string };
  const number = await redis.incr(counterKey);
  const { rows } = await pool.query({
    name: "floor-insert-order",
    text: `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, note, channel) VALUES ($1, $2, CURRENT_DATE, 1, $3, $4, $5, 'api') RETURNING *`,
    values: [randomUUID(), tenantId, number, JSON.stringify(order.items), order.note ?? null],
  });
  return rows[0];
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
