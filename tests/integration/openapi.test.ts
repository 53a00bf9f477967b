/**
 * The OpenAPI contract over HTTP: served by the running app, public and cacheable, the
 * same document the tests hold answers to; and apiClient / contractFetch really fail a
 * test on an answer outside it (a stand-in server answers what the app never should).
 */
import { createServer, get, type Server } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openApiDocument, openApiJson } from "@/lib/edges/http/openapi/document";
import { apiClient, contractFetch, expectApiError, expectStatus } from "../support/http";

const baseUrl = inject("baseUrl");
const call = apiClient(baseUrl);

describe("GET /api/v1/openapi.json", () => {
  it("serves the contract: public, JSON, cacheable, the document the tests check against", async () => {
    const res = await call<Record<string, unknown>>("GET", "/api/v1/openapi.json");
    expect(expectStatus(res, 200)).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.body.openapi).toBe("3.1.0");
  });

  it("compressed when the client accepts it, with an ETag that If-None-Match answers 304", async () => {
    // node:http, which (unlike fetch) hands the body over as it came.
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) =>
        get(`${baseUrl}/api/v1/openapi.json`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject),
      );
    const plain = await raw({});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(openApiJson());
    const gzip = await raw({ "accept-encoding": "gzip, deflate" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(openApiJson());
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4);
    const br = await raw({ "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(openApiJson());
    // br refused (q=0): gzip.
    expect((await raw({ "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"]).toBe("gzip");
    for (const res of [plain, gzip, br]) {
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers["cache-control"]).toBe("public, max-age=300");
    }
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect([gzip.headers.etag, br.headers.etag]).toEqual([etag, etag]);
    const notModified = await contractFetch(`${baseUrl}/api/v1/openapi.json`, { headers: { "if-none-match": `W/"other", ${etag}` } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(await notModified.text()).toBe("");
    expect((await raw({ "if-none-match": '"other"' })).status).toBe(200);
  });

  it("takes no query parameters and answers other methods in the error contract", async () => {
    expectApiError(await call("GET", "/api/v1/openapi.json?v=1"), 400, "BAD_INPUT");
    const post = await call("POST", "/api/v1/openapi.json", { json: {} });
    expectApiError(post, 405, "METHOD_NOT_ALLOWED");
    expect(post.headers.get("allow")).toContain("GET");
  });
});

describe("an answer outside the contract fails the test", () => {
  let stand: Server;
  let standUrl: string;
  /** What the stand-in answers, by path. */
  const answers: Record<string, { status: number; type: string; body: string }> = {
    "/api/v1/orgs/alpha/board": { status: 200, type: "application/json", body: JSON.stringify({ businessDay: "2026-11-26", shift: "1" }) },
    "/api/v1/orgs/alpha/orders/x": { status: 418, type: "application/json", body: JSON.stringify({ error: { code: "BAD_INPUT", message: "tea" } }) },
    "/api/health": { status: 200, type: "text/html", body: "<html></html>" },
    "/api/ready": {
      status: 200,
      type: "application/json",
      body: JSON.stringify({
        status: "ready",
        checks: { database: "up", redis: "up", migrations: "applied", node: "running" },
        replication: "none",
        checkedAt: "2026-11-28T05:00:00.000Z",
      }),
    },
  };

  beforeAll(async () => {
    stand = createServer((req, res) => {
      const a = answers[req.url ?? ""] ?? { status: 404, type: "application/json", body: JSON.stringify({ error: { code: "NOT_FOUND", message: "No." } }) };
      res.writeHead(a.status, { "content-type": a.type }).end(a.body);
    });
    await new Promise<void>((resolve) => stand.listen(0, "127.0.0.1", resolve));
    standUrl = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));

  it("apiClient: a body that breaks the schema, a status not documented, a wrong content type", async () => {
    const stand = apiClient(standUrl);
    await expect(stand("GET", "/api/v1/orgs/alpha/board")).rejects.toThrow(
      /outside the OpenAPI contract: GET \/api\/v1\/orgs\/\{slug\}\/board \(\/api\/v1\/orgs\/alpha\/board\) → 200: the body does not match[\s\S]*\/shift must be integer/,
    );
    await expect(stand("GET", "/api/v1/orgs/alpha/orders/x", { key: "k" })).rejects.toThrow(
      /GET \/api\/v1\/orgs\/\{slug\}\/orders\/\{id\} .*→ 418: status 418 is not in the contract/,
    );
    await expect(stand("GET", "/api/health")).rejects.toThrow(/content type "text\/html" is not in the contract/);
    // The checker passes what keeps the contract: the failures above are the answers', not the stand-in's.
    expectStatus(await stand("GET", "/api/ready"), 200);
  });

  it("contractFetch: the same checks on a raw fetch", async () => {
    await expect(contractFetch(`${standUrl}/api/v1/orgs/alpha/board`)).rejects.toThrow(/\/shift must be integer/);
    expect((await contractFetch(`${standUrl}/api/ready`)).status).toBe(200);
  });
});
