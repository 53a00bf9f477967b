/**
 * Input an attacker (or a broken POS) sends, against the running app: control characters in
 * text and broken slugs are refused with a named 4xx — never a 500 — and a refused order
 * spends no number (issue #10, first rows of its table).
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { hashApiKey } from "@/lib/auth/secrets.server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, contractFetch, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { expectConnectError } from "../support/board-socket";

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
    call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, {
      key: t.apiKeys.cashier,
      json,
      ...(idempotencyKey ? { headers: { "idempotency-key": idempotencyKey } } : {}),
    });

  it("refuses a NUL, another control character or a bidi/format character in a note or an item name, naming the field, and spends no number", async () => {
    const first = expectStatus(await place({ items: [{ name: "Tea", qty: 1 }] }), 201);
    const hostile: [unknown, string][] = [
      [{ items: [{ name: "Tea", qty: 1 }], note: "a\u0000b" }, "note"],
      [{ items: [{ name: "Te\u0000a", qty: 1 }] }, "items.0.name"],
      [{ items: [{ name: "Tea\u001b[31m", qty: 1 }] }, "items.0.name"],
      [{ items: [{ name: "Tea", qty: 1 }], note: "bell\u0007" }, "note"],
      [{ items: [{ name: "Tea \ud800", qty: 1 }] }, "items.0.name"],
      // Bidi overrides and isolates: a kitchen would read text other than what is stored.
      [{ items: [{ name: "Tea", qty: 1 }], note: "no \u202Esnoino" }, "note"],
      [{ items: [{ name: "\u2066Tea\u2069", qty: 1 }] }, "items.0.name"],
      [{ items: [{ name: "Te\u200Ba", qty: 1 }] }, "items.0.name"],
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
    const err = expectApiError(
      await call("POST", `/api/v1/orgs/${t.slug}/shifts`, { key: t.apiKeys.manager, json: { reason: "lunch\u0000" } }),
      400,
      "BAD_INPUT",
    );
    expect(fieldsOf(err)).toContain("reason");
  });
});

describe("slugs", () => {
  // A NUL, a slash-free path traversal and a 5,000-character name: no such restaurant.
  const unknown = ["a%00b", "..%2f..", "a".repeat(5_000)];
  // Bytes that are not UTF-8: not a valid address at all.
  const malformed = ["%ff", "%c3%28"];
  const cases = [...unknown.map((s) => [s, 404, "NOT_FOUND"] as const), ...malformed.map((s) => [s, 400, "BAD_INPUT"] as const)];

  it("a broken slug is a 404 (or a 400 for broken percent-encoding) on the REST API, never a 500", async () => {
    for (const [slug, status, code] of cases) {
      for (const path of [`/api/v1/orgs/${slug}/board`, `/api/v1/orgs/${slug}/orders`]) {
        const res = await contractFetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` } });
        expect(res.status, `${path.slice(0, 60)}`).toBe(status);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
      }
    }
  });

  it("a broken slug is a 404 page (or a 400), never a 500", async () => {
    for (const [slug, status] of cases) {
      for (const screen of ["board", "kiosk", "sign-in"]) {
        const res = await fetch(`${baseUrl}/${slug}/${screen}`, { redirect: "manual" });
        expect(res.status, `/${slug.slice(0, 20)}/${screen}`).toBe(status);
      }
    }
  });

  it("a socket handshake with a broken slug is told the restaurant is unknown, not that the service is down", async () => {
    for (const slug of ["a\u0000b", "x".repeat(12_000), "%ff"]) {
      const err = await expectConnectError(baseUrl, slug);
      expect(err.message).toMatch(/unknown restaurant/i);
      expect(err.message).not.toContain(slug.slice(0, 100));
    }
  });
});

describe("API key prefixes", () => {
  it("new keys carry a 64-bit prefix; a key made with the old 32-bit prefix still works", async () => {
    expect(t.apiKeys.cashier).toMatch(/^nxu_csh_[0-9a-f]{16}_/);
    const legacy = `nxu_csh_${randomBytes(4).toString("hex")}_${randomBytes(24).toString("base64url")}`;
    const db = createPrisma(databaseUrl, { max: 1 });
    try {
      await db.apiKey.create({ data: { tenantId: t.id, role: "CASHIER", name: "old POS", prefix: legacy.split("_")[2]!, keyHash: hashApiKey(legacy) } });
    } finally {
      await db.$disconnect();
    }
    expectStatus(await call("GET", `/api/v1/orgs/${t.slug}/orders`, { key: legacy }), 200);
  });
});
