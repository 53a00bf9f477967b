import { z } from "zod";
import { ORDER_STATUSES, parseOrThrow } from "@/lib/core/orders";
import { api, authorize, json, orderJson, readJson } from "@/lib/edges/http/api.server";

type Params = { slug: string };

/** Take an order: 201 with its number. `Idempotency-Key` makes retries safe. */
export const POST = api<Params>(async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER"]);
  const body = await readJson(req);
  const { order, created } = await app.orders.place(tenant, body, {
    idempotencyKey: req.headers.get("idempotency-key"),
    channel: "api",
  });
  return json(orderJson(order, tenant), 201, created ? undefined : { "Idempotent-Replayed": "true" });
});

const statusQuery = z.array(z.enum(ORDER_STATUSES, { error: "status must be PLACED, READY, COLLECTED or CANCELLED" }));

/** The current shift's orders, optionally filtered: `?status=PLACED&status=READY` or `?status=PLACED,READY`. */
export const GET = api<Params>(async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER", "KITCHEN"]);
  const raw = new URL(req.url).searchParams.getAll("status").flatMap((s) => s.split(",")).filter(Boolean);
  const statuses = raw.length ? parseOrThrow(statusQuery, raw.map((s) => s.toUpperCase()), "status filter") : undefined;
  const { businessDay, shift, orders } = await app.orders.currentShift(tenant, statuses);
  return json({ businessDay, shift, orders: orders.map((o) => orderJson(o, tenant)) });
});
