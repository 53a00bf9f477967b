/**
 * Input an attacker (or a broken POS) sends, against the running app: control characters in
 * text and broken slugs are refused with a named 4xx — never a 500 — and a refused order
 * spends no number (issue #10, first rows of its table).
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

let t: TestTenant;
beforeAll(async () => {
  const slug = uniqueSlug("hostile");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
});

const fieldsOf = (err: { details?: unknown }) => ((err.details as { fields?: { path: string }[] })?.fields ?? []).map((f) => f.path);

describe("text fields", () => {
  const place = (json: unknown, idempotencyKey?: string) =>
    call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json, ...(idempotencyKey ? { headers: { "idempotency-key": idempotencyKey } } : {}) });

  it("refuses a NUL or another control character in a note or an item name, naming the field, and spends no number", async () => {
    const first = expectStatus(await place({ items: [{ name: "Tea", qty: 1 }] }), 201);
    const hostile: [unknown, string][] = [
      [{ items: [{ name: "Tea", qty: 1 }], note: "a\u0000b" }, "note"],
      [{ items: [{ name: "Te\u0000a", qty: 1 }] }, "items.0.name"],
      [{ items: [{ name: "Tea\u001b[31m", qty: 1 }] }, "items.0.name"],
      [{ items: [{ name: "Tea", qty: 1 }], note: "bell\u0007" }, "note"],
      [{ items: [{ name: "Tea \ud800", qty: 1 }] }, "items.0.name"],
    ];
    for (const [json, field] of hostile) {
      // Retried with one Idempotency-Key, as a POS would: still refused, still no number.
      for (let attempt = 0; attempt < 2; attempt++) {
        const err = expectApiError(await place(json, `hostile-${field}`), 400, "BAD_INPUT");
        expect(fieldsOf(err), JSON.stringify(json)).toContain(field);
      }
    }
    // A note may still span lines.
    const next = expectStatus(await place({ items: [{ name: "Soup", qty: 1 }], note: "no onions\nextra spicy" }), 201);
    expect(next.number).toBe(first.number + 1);
    expect(next.note).toBe("no onions\nextra spicy");
  });

  it("refuses control characters in a shift's reason", async () => {
    const err = expectApiError(await call("POST", `/api/v1/orgs/${t.slug}/shifts`, { key: t.apiKeys.manager, json: { reason: "lunch\u0000" } }), 400, "BAD_INPUT");
    expect(fieldsOf(err)).toContain("reason");
  });
});
