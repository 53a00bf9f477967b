/**
 * The OpenAPI contract (lib/edges/http/openapi) is a valid OpenAPI 3.1 document, names
 * every route file's methods and nothing else, and is usable for client generation; the
 * response checker the integration tests use refuses what the contract does not allow.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument, openApiJson } from "@/lib/edges/http/openapi/document";
import { ContractChecker, templateOf } from "../support/openapi-contract";

const doc = openApiDocument();
const METHODS = ["get", "post", "put", "patch", "delete", "head", "options", "trace"] as const;

/** Every `app/api/**\/route.ts` as `METHOD /template`, from the methods the file exports. */
function routeOperations(): string[] {
  const found: string[] = [];
  const walk = (dir: string, pattern: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${pattern}/${entry.name}`);
      else if (entry.name === "route.ts") {
        const source = readFileSync(path.join(dir, entry.name), "utf8");
        for (const [, method] of source.matchAll(/^export const (GET|POST|PUT|PATCH|DELETE)\b/gm)) found.push(`${method} ${templateOf(pattern)}`);
      }
    }
  };
  walk(path.resolve("app/api"), "/api");
  return found.sort();
}

const documentedOperations = () =>
  Object.entries(doc.paths ?? {})
    .flatMap(([p, item]) => METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();

const operations = () =>
  [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})].flatMap((item) =>
    METHODS.flatMap((m) => {
      const op = (item as Record<string, { operationId?: string; tags?: string[]; summary?: string }>)[m];
      return op ? [op] : [];
    }),
  );

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(openApiJson()) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is refused by the validator once broken (the validation can fail)", async () => {
    // OpenAPI 2's body parameter does not exist in 3.1.
    const broken = JSON.parse(openApiJson()) as { paths: Record<string, Record<string, { parameters: { in: string }[] }>> };
    broken.paths["/api/v1/orgs/{slug}/orders"]!.post!.parameters[0]!.in = "body";
    expect((await new Validator().validate(broken)).valid).toBe(false);
    const noInfo = JSON.parse(openApiJson()) as { info?: unknown };
    delete noInfo.info;
    expect((await new Validator().validate(noInfo)).valid).toBe(false);
  });

  it("documents every method every app/api route file exports, and nothing else", () => {
    const routes = routeOperations();
    expect(routes.length).toBeGreaterThan(50);
    expect(documentedOperations()).toEqual(routes);
  });

  it("documents the webhooks: every event type and ping, signed per Standard Webhooks", () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual(
      ["order.created", "order.ready", "order.collected", "order.cancelled", "order.cleared", "shift.started", "ping"].sort(),
    );
    const created = JSON.stringify(doc.webhooks!["order.created"]);
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) expect(created).toContain(`"name":"${header}"`);
  });

  it("gives a client generator what it needs: unique operationIds, a tag and a summary on every operation", () => {
    const ops = operations();
    const ids = ops.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops) {
      expect(op.tags?.length, op.operationId).toBeGreaterThan(0);
      expect(op.summary?.trim(), op.operationId).toBeTruthy();
    }
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    expect(ops.flatMap((o) => o.tags ?? []).filter((t) => !tags.has(t))).toEqual([]);
  });

  it("says which roles' keys each keyed operation takes, and every error in the error contract", () => {
    const createOrder = doc.paths!["/api/v1/orgs/{slug}/orders"]!.post!;
    expect(createOrder.security).toEqual([{ apiKey: ["MANAGER", "CASHIER"] }]);
    expect(doc.paths!["/api/v1/orgs/{slug}/board"]!.get!.security).toEqual([]);
    expect(Object.keys(createOrder.responses ?? {})).toEqual(expect.arrayContaining(["201", "400", "401", "403", "404", "409", "413", "429", "503"]));
    expect(doc.components?.securitySchemes?.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });
});

describe("the contract checker", () => {
  const checker = new ContractChecker(doc);
  const order = {
    id: "7d4c0000-0000-4000-8000-000000000000",
    number: 42,
    series: "Default",
    prefix: "",
    display: "42",
    businessDay: "2026-11-21",
    shift: 1,
    status: "PLACED",
    items: [{ name: "Beef noodles", qty: 2 }],
    note: null,
    channel: "pos",
    service: null,
    createdAt: "2026-11-21T11:02:03.456Z",
    readyAt: null,
    collectedAt: null,
    cancelledAt: null,
    cleared: false,
    clearedAt: null,
    trackPath: "/my-diner/o/7d4c0000-0000-4000-8000-000000000000",
    stations: [],
  };
  const json = new Headers({ "content-type": "application/json" });
  const answer = (method: string, url: string, status: number, body: unknown, headers = json) => ({ method, url, status, headers, body, parsedJson: true });

  it("accepts an answer in the contract", () => {
    expect(checker.problems(answer("POST", "/api/v1/orgs/my-diner/orders", 201, order))).toBeNull();
    expect(checker.problems(answer("GET", "/api/v1/orgs/my-diner/orders/x", 404, { error: { code: "NOT_FOUND", message: "No such order." } }))).toBeNull();
  });

  it("refuses a body that breaks the schema, naming method, template, status and the field", () => {
    const problem = checker.problems(answer("POST", "/api/v1/orgs/my-diner/orders", 201, { ...order, number: "42" }));
    expect(problem).toMatch(/^POST \/api\/v1\/orgs\/\{slug\}\/orders \(\/api\/v1\/orgs\/my-diner\/orders\) → 201: the body does not match/);
    expect(problem).toContain("/number must be integer");
    expect(checker.problems(answer("POST", "/api/v1/orgs/my-diner/orders", 201, { ...order, extra: true }))).toContain('"additionalProperty":"extra"');
  });

  it("refuses a status, a code or a content type the operation does not document", () => {
    expect(checker.problems(answer("GET", "/api/v1/orgs/my-diner/board", 401, { error: { code: "UNAUTHENTICATED", message: "x" } }))).toContain(
      "status 401 is not in the contract",
    );
    expect(checker.problems(answer("GET", "/api/v1/orgs/my-diner/orders/x", 404, { error: { code: "CONFLICT", message: "x" } }))).toContain("/error/code");
    expect(checker.problems(answer("GET", "/api/v1/orgs/my-diner/orders/x", 200, order, new Headers({ "content-type": "text/html" })))).toContain(
      'content type "text/html"',
    );
  });

  it("holds methods a path does not take to the error contract with Allow, and leaves pages out", () => {
    const allow = new Headers({ "content-type": "application/json", allow: "GET, HEAD, OPTIONS, POST" });
    expect(checker.problems(answer("PUT", "/api/v1/orgs/my-diner/orders", 405, { error: { code: "METHOD_NOT_ALLOWED", message: "No." } }, allow))).toBeNull();
    expect(checker.problems(answer("PUT", "/api/v1/orgs/my-diner/orders", 200, order, allow))).toContain("does not take PUT");
    expect(checker.problems(answer("GET", "/api/v1/no/such/thing", 404, { error: { code: "NOT_FOUND", message: "No." } }))).toBeNull();
    expect(checker.covers("/my-diner/board")).toBe(false);
    expect(checker.covers("/api/v1/orgs/my-diner/board")).toBe(true);
    expect(checker.covers("/api/v1/./orgs/%2e/my-diner/board/..")).toBe(true);
  });

  it("requires the headers the contract requires (Retry-After on a 429)", () => {
    const limited = { error: { code: "RATE_LIMITED", message: "Slow down." } };
    expect(checker.problems(answer("GET", "/api/v1/orgs/my-diner/orders", 429, limited))).toContain("required header Retry-After");
    expect(
      checker.problems(answer("GET", "/api/v1/orgs/my-diner/orders", 429, limited, new Headers({ "content-type": "application/json", "retry-after": "3" }))),
    ).toBeNull();
  });
});
