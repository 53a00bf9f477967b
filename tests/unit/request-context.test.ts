import { describe, expect, it } from "vitest";
import { requestIdFrom, requestLogFields, runWithRequest, tenantFromParam } from "@/lib/server/ops/request-context.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("keeps a sane incoming x-request-id and replaces anything else with a UUID", () => {
    expect(requestIdFrom("abc-123_x.y:z")).toBe("abc-123_x.y:z");
    expect(requestIdFrom(["first-id", "second"])).toBe("first-id");
    for (const bad of [undefined, "", "has space", "x".repeat(129), "a\nforged log line", "<script>"]) expect(requestIdFrom(bad)).toMatch(UUID);
  });
});

describe("tenant from the URL", () => {
  it("is the slug when it is a well-formed one, else nothing", () => {
    expect(tenantFromParam("alpha-noodles")).toBe("alpha-noodles");
    expect(tenantFromParam(undefined)).toBeUndefined();
    expect(tenantFromParam("%ff")).toBeUndefined();
    expect(tenantFromParam("a%00b")).toBeUndefined();
    expect(tenantFromParam("x".repeat(12_000))).toBeUndefined();
  });
});

describe("log fields", () => {
  it("carry the request's id and tenant inside its context, across awaits, and nothing outside", async () => {
    expect(requestLogFields()).toEqual({});
    const seen = await runWithRequest({ reqId: "r1", tenant: "alpha" }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return requestLogFields();
    });
    expect(seen).toEqual({ reqId: "r1", tenant: "alpha" });
    expect(runWithRequest({ reqId: "r2" }, () => requestLogFields())).toEqual({ reqId: "r2" });
    expect(requestLogFields()).toEqual({});
  });
});
