import { describe, expect, it } from "vitest";
import { AppError, toErrorBody } from "@/lib/core/errors";
import { assertTransition, canTransition, idempotencyKeySchema, newOrderSchema, parseOrThrow, statusChangeSchema, ORDER_STATUSES } from "@/lib/core/orders";
import { newTenantSchema } from "@/lib/core/tenants";
import { startShiftSchema } from "@/lib/core/shift-service";

function badInput(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("BAD_INPUT");
    return e as AppError;
  }
  throw new Error("expected BAD_INPUT, nothing was thrown");
}

describe("order input", () => {
  it("accepts an empty order and fills defaults", () => {
    expect(parseOrThrow(newOrderSchema, {}, "order")).toEqual({ items: [] });
  });

  it("trims names and notes", () => {
    const o = parseOrThrow(newOrderSchema, { items: [{ name: "  Ramen ", qty: 2 }], note: " extra egg " }, "order");
    expect(o).toEqual({ items: [{ name: "Ramen", qty: 2 }], note: "extra egg" });
  });

  it.each([
    ["qty 0", { items: [{ name: "A", qty: 0 }] }, "items.0.qty"],
    ["qty 1.5", { items: [{ name: "A", qty: 1.5 }] }, "items.0.qty"],
    ["qty as string", { items: [{ name: "A", qty: "2" }] }, "items.0.qty"],
    ["empty name", { items: [{ name: "  ", qty: 1 }] }, "items.0.name"],
    ["items not an array", { items: "ramen" }, "items"],
    ["unknown field", { itmes: [] }, "(body)"],
    ["note too long", { note: "x".repeat(501) }, "note"],
    ["unknown channel", { channel: "carrier-pigeon" }, "channel"],
    ["101 items", { items: Array.from({ length: 101 }, () => ({ name: "A", qty: 1 })) }, "items"],
  ])("refuses %s and names the field", (_label, input, path) => {
    const err = badInput(() => parseOrThrow(newOrderSchema, input, "order"));
    const fields = (err.details as { fields: { path: string }[] }).fields;
    expect(fields.map((f) => f.path)).toContain(path);
    expect(err.userMessage.length).toBeGreaterThan(5);
  });

  it("refuses a body that is not an object", () => {
    badInput(() => parseOrThrow(newOrderSchema, [1, 2], "order"));
    badInput(() => parseOrThrow(newOrderSchema, "hello", "order"));
  });
});

describe("status transitions", () => {
  it("allows the kitchen's moves and the undo", () => {
    expect(canTransition("PLACED", "READY")).toBe(true);
    expect(canTransition("READY", "COLLECTED")).toBe(true);
    expect(canTransition("READY", "PLACED")).toBe(true);
    expect(canTransition("PLACED", "CANCELLED")).toBe(true);
  });

  it("keeps CANCELLED final and lets COLLECTED only go back to READY (the kitchen's undo)", () => {
    for (const to of ORDER_STATUSES) {
      if (to !== "COLLECTED") expect(canTransition("COLLECTED", to)).toBe(to === "READY");
      if (to !== "CANCELLED") expect(canTransition("CANCELLED", to)).toBe(false);
    }
  });

  it("makes an illegal move a CONFLICT and the same status a no-op", () => {
    expect(() => assertTransition("CANCELLED", "READY")).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(() => assertTransition("PLACED", "COLLECTED")).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(() => assertTransition("READY", "READY")).not.toThrow();
  });

  it("validates the status value", () => {
    badInput(() => parseOrThrow(statusChangeSchema, { status: "DONE" }, "status change"));
    expect(parseOrThrow(statusChangeSchema, { status: "READY" }, "status change")).toEqual({ status: "READY" });
  });
});

describe("tenant and shift input", () => {
  it("names the bad time zone and day start", () => {
    const err = badInput(() => parseOrThrow(newTenantSchema, { slug: "ok-slug", name: "X", timeZone: "Mars/Base", dayStart: "25:00" }, "restaurant"));
    expect(err.message).toContain("Mars/Base");
    expect(err.message).toContain("25:00");
  });

  it("refuses slugs that do not fit in a URL path segment", () => {
    for (const slug of ["A", "Upper", "-dash", "dash-", "sp ace", "a/b", "x".repeat(41)]) {
      badInput(() => parseOrThrow(newTenantSchema, { slug, name: "X", timeZone: "UTC", dayStart: "04:00" }, "restaurant"));
    }
  });

  it("accepts a shift with a chosen first number and refuses nonsense", () => {
    expect(parseOrThrow(startShiftSchema, { firstNumber: 100, reason: " evening " }, "shift")).toEqual({
      firstNumber: 100,
      reason: "evening",
      openOrders: "keep",
    });
    expect(parseOrThrow(startShiftSchema, { openOrders: "clear" }, "shift")).toEqual({ openOrders: "clear" });
    badInput(() => parseOrThrow(startShiftSchema, { openOrders: "hide" }, "shift"));
    badInput(() => parseOrThrow(startShiftSchema, { firstNumber: 0 }, "shift"));
    badInput(() => parseOrThrow(startShiftSchema, { firstNumber: 2.5 }, "shift"));
  });
});

describe("error bodies", () => {
  it("maps codes to statuses and hides internal messages", () => {
    expect(toErrorBody(new AppError("CONFLICT", { message: "internal detail", userMessage: "Shown" }))).toEqual({
      status: 409,
      body: { error: { code: "CONFLICT", message: "Shown" } },
    });
    const internal = toErrorBody(new Error("secret stack detail"));
    expect(internal.status).toBe(500);
    expect(JSON.stringify(internal.body)).not.toContain("secret");
  });

  it("Idempotency-Key takes printable ASCII, spaces inside included (docs/api.md), 1–200 characters", () => {
    for (const key of ["order 1001", "a", "~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}", "x".repeat(200), "x y".padEnd(200, "z")]) {
      expect(parseOrThrow(idempotencyKeySchema, key, "Idempotency-Key", "Idempotency-Key")).toBe(key);
    }
    badInput(() => parseOrThrow(idempotencyKeySchema, "x".repeat(201), "Idempotency-Key", "Idempotency-Key"));
  });

  it("names a header or query parameter that is not the body, rather than '(body)'", () => {
    for (const key of ["", " a", "a ", "ü", "a\tb"]) {
      const err = badInput(() => parseOrThrow(idempotencyKeySchema, key, "Idempotency-Key", "Idempotency-Key"));
      expect(err.userMessage).toMatch(/^Idempotency-Key: /);
      expect((err.details as { fields: { path: string }[] }).fields.map((f) => f.path)).toContain("Idempotency-Key");
    }
  });
});
