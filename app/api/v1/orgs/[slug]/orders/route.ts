import { z } from "zod";
import { ORDER_STATUSES, parseOrThrow } from "@/lib/core/orders";
import { api, authorize, json, orderJson, readJson } from "@/lib/edges/http/api.server";
import { queryOf } from "@/lib/edges/http/reports.server";
import { publicOrigin } from "@/lib/server/http/public-origin.server";
import { requestOrigin } from "@/app/_lib/tenant.server";
import { orderListSchema, ordersByNumberSchema } from "@/lib/edges/http/openapi/schemas/orders";

type Params = { slug: string };

/** Take an order: 201 with its number. `Idempotency-Key` makes retries safe. */
export const POST = api<Params>({ body: "json" }, async (req, { params, app }) => {
  const { tenant, client, by } = await authorize(app, req, params.slug, ["CASHIER"]);
  const body = await readJson(req);
  const { order, created } = await app.orders.place(tenant, body, {
    idempotencyKey: req.headers.get("idempotency-key"),
    // Per API key: two integrators' `order-1001` are two orders.
    idempotencyScope: client,
    channel: "api",
    by,
    // The restaurant's printer prints the ticket unless the body says "print": false.
    print: { device: null, origin: publicOrigin({ env: app.env, requestOrigin: requestOrigin(req.headers) }) },
  });
  return json(orderJson(order, tenant), 201, created ? undefined : { "Idempotent-Replayed": "true" });
});

const statusQuery = z.array(z.enum(ORDER_STATUSES, { error: "status must be PLACED, READY, COLLECTED or CANCELLED" }));

/**
 * The current shift's orders, optionally filtered: `?status=PLACED&status=READY` or
 * `?status=PLACED,READY`. With `?number=N[&day=YYYY-MM-DD]` (manager): every order of
 * that day with that number, whatever its shift; `K12` those of the series lettered K,
 * `12` every series' (more than one order is how an ambiguous number answers).
 */
export const GET = api<Params>({ query: { status: "many", number: "one", day: "one" } }, async (req, { params, app }) => {
  const search = new URL(req.url).searchParams;
  if (search.has("number") || search.has("day")) {
    const { tenant } = await authorize(app, req, params.slug, ["MANAGER"]);
    const found = await app.reports.findByNumber(tenant, queryOf(req, ["number", "day"]));
    return json({
      businessDay: found.businessDay,
      number: found.number,
      prefix: found.prefix,
      display: found.display,
      orders: found.orders.map((o) => orderJson(o, tenant)),
    } satisfies z.output<typeof ordersByNumberSchema>);
  }
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER", "KITCHEN"]);
  const raw = new URL(req.url).searchParams
    .getAll("status")
    .flatMap((s) => s.split(","))
    .filter(Boolean);
  const statuses = raw.length
    ? parseOrThrow(
        statusQuery,
        raw.map((s) => s.toUpperCase()),
        "status filter",
        "status",
      )
    : undefined;
  const { businessDay, shift, orders } = await app.orders.currentShift(tenant, statuses);
  return json({ businessDay, shift, orders: orders.map((o) => orderJson(o, tenant)) } satisfies z.output<typeof orderListSchema>);
});
