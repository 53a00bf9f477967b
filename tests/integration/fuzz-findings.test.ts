/**
 * What the fuzz test (fuzz-api.test.ts) found, one example each. Most are at the edges of
 * the HTTP server: requests answered by Node's parser or by Next.js itself, before any route
 * handler, still get the error contract `{"error":{"code","message"}}` as JSON — never a
 * 5xx, an empty body, an HTML page, silence, or a redirect to another host.
 */
import { describe, expect, inject, it } from "vitest";
import { ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { rawHttp, requestBytes, type RawRequest, type RawResponse } from "../support/raw-http";

const baseUrl = inject("baseUrl");
const port = Number(new URL(baseUrl).port);
const alpha = inject("tenants").alpha!;

async function send(req: RawRequest | Buffer): Promise<RawResponse> {
  const result = await rawHttp(port, Buffer.isBuffer(req) ? req : requestBytes(req, `127.0.0.1:${port}`));
  if (result.kind === "closed") throw new Error(`the server closed the connection without an answer (got ${JSON.stringify(result.raw.toString("latin1"))})`);
  return result.response;
}

/** The answer is `status` with `{"error":{"code","message"}}` as JSON, `code` matching the status. */
function expectContract(res: RawResponse, status: number, code: ErrorCode): string {
  expect({ status: res.status, type: res.headers["content-type"], body: res.body.toString("utf8").slice(0, 200) }).toMatchObject({
    status,
    type: expect.stringMatching(/^application\/json/),
  });
  const body = JSON.parse(res.body.toString("utf8")) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(ERROR_STATUS[code]).toBe(status);
  expect(body.error.message.trim()).not.toBe("");
  return body.error.message;
}

describe("methods the API does not serve", () => {
  it("TRACE and other methods Next.js does not serve are 405 in the contract on an API path (TRACE was a 500)", async () => {
    for (const method of ["TRACE", "PROPFIND", "PURGE", "QUERY"]) {
      for (const [path, allow] of [
        ["/api/health", "GET, HEAD, OPTIONS"],
        [`/api/v1/orgs/${alpha.slug}/orders`, "GET, HEAD, OPTIONS, POST"],
      ] as const) {
        const res = await send({ method, target: path });
        expectContract(res, 405, "METHOD_NOT_ALLOWED");
        // RFC 9110 §15.5.6: a 405 names the methods the resource takes (the OpenAPI contract requires it too).
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      }
    }
  });
});

describe("methods a route does not export", () => {
  it("are 405 in the contract, not an empty 405", async () => {
    const key = alpha.apiKeys.manager;
    const cases: RawRequest[] = [
      { method: "PUT", target: `/api/v1/orgs/${alpha.slug}/orders`, headers: [["Authorization", `Bearer ${key}`]] },
      { method: "DELETE", target: "/api/health" },
      { method: "GET", target: `/api/v1/orgs/${alpha.slug}/orders/00000000-0000-4000-8000-000000000000/status` },
      { method: "PATCH", target: `/api/v1/orgs/${alpha.slug}/settings`, headers: [["Content-Type", "application/json"]], body: "{}" },
    ];
    for (const req of cases) {
      const message = expectContract(await send(req), 405, "METHOD_NOT_ALLOWED");
      expect(message).toContain(req.method);
    }
  });

  it("a HEAD the route does not serve says so in its headers (no body, as HEAD never has one)", async () => {
    const res = await send({ method: "HEAD", target: `/api/v1/orgs/${alpha.slug}/orders/00000000-0000-4000-8000-000000000000/status` });
    expect(res.status).toBe(405);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("API paths no route serves", () => {
  it("are 404 in the contract, not the HTML page", async () => {
    for (const [method, path] of [
      ["GET", "/api"],
      ["GET", "/api/v1/orgs"],
      ["GET", `/api/v1/orgs/${alpha.slug}/nothing-here`],
      ["POST", `/api/v1/orgs/${alpha.slug}/orders/x/y/z`],
      ["DELETE", "/api/v2/orgs/alpha/orders"],
      ["GET", "/api/v1/voice/en/1.wav/more"],
    ]) {
      expectContract(await send({ method: method!, target: path! }), 404, "NOT_FOUND");
    }
  });
});

describe("request targets that are not a path", () => {
  it("`*` is refused with a 400 in the contract (was a 500); OPTIONS * says what the server allows", async () => {
    expectContract(await send({ method: "GET", target: "*" }), 400, "BAD_INPUT");
    expectContract(await send({ method: "POST", target: "*", body: "{}" }), 400, "BAD_INPUT");
    const options = await send({ method: "OPTIONS", target: "*" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toMatch(/GET.*POST/);
  });

  it("an absolute URL (as sent to a proxy) is served by its path and never redirected to the host it names", async () => {
    const health = await send({ method: "GET", target: "http://evil.example/api/health" });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString("utf8"))).toMatchObject({ status: expect.any(String) });
    for (const target of ["http://evil.example/api/health/", `https://evil.example/${alpha.slug}/board/`, "http://evil.example"]) {
      const res = await send({ method: "GET", target });
      expect(res.headers.location ?? "", target).not.toContain("evil.example");
      expect(res.status, target).toBeLessThan(500);
    }
    expectContract(await send({ method: "GET", target: "ftp://evil.example/api/health" }), 400, "BAD_INPUT");
  });
});

describe("requests Node's HTTP parser refuses", () => {
  const raw = (text: string) => Buffer.from(text, "latin1");

  it("a NUL or a space in the path, a broken header or request line: 400 in the contract, not an empty 400", async () => {
    for (const bytes of [
      `GET /api/v1/orgs/a\u0000b/board HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET /api/v1/orgs/a b/board HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Junk: a\u0000b\r\nConnection: close\r\n\r\n`,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nNoColon\r\nConnection: close\r\n\r\n`,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\nConnection: close\r\n\r\n`,
      `GET\u0000 /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET /api/health HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ]) {
      expectContract(await send(raw(bytes)), 400, "BAD_INPUT");
    }
  });

  it("a method Node's parser does not know is a 400 in the contract", async () => {
    for (const method of ["TRACK", "FOO"]) expectContract(await send({ method, target: "/api/health" }), 400, "BAD_INPUT");
  });

  it("headers over the size limit: 431 in the contract", async () => {
    expectContract(await send({ method: "GET", target: "/api/health", headers: [["X-Big", "b".repeat(20_000)]] }), 431, "HEADERS_TOO_LARGE");
  });

  it("CONNECT gets an answer (405 in the contract) instead of a closed connection", async () => {
    expectContract(await send(raw("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n")), 405, "METHOD_NOT_ALLOWED");
  });

  it("an unknown Expect is ignored: the request is served (was an empty 417)", async () => {
    const res = await send({ method: "GET", target: "/api/health", headers: [["Expect", "junk"]] });
    expect(res.status).toBe(200);
    expectContract(await send({ method: "GET", target: "/api/v1/orgs/nobody-here/board", headers: [["Expect", "junk"]] }), 404, "NOT_FOUND");
  });
});

describe("a bad header or query parameter", () => {
  it("is named in the 400: an empty Idempotency-Key, a status filter that is not a status", async () => {
    const orders = `/api/v1/orgs/${alpha.slug}/orders`;
    const auth: [string, string] = ["Authorization", `Bearer ${alpha.apiKeys.cashier}`];
    for (const [req, field] of [
      [{ method: "POST", target: orders, headers: [auth, ["Content-Type", "application/json"], ["Idempotency-Key", ""]], body: "{}" }, "Idempotency-Key"],
      // Printable ASCII only (spaces inside are taken, as documented): a byte over 0x7E is named.
      [{ method: "POST", target: orders, headers: [auth, ["Idempotency-Key", "k\u00fcy"]] }, "Idempotency-Key"],
      [{ method: "GET", target: `${orders}?status=PLACED,SOON`, headers: [auth] }, "status"],
    ] as [RawRequest, string][]) {
      const message = expectContract(await send(req), 400, "BAD_INPUT");
      expect(message, req.target).toMatch(new RegExp(`^${field}\\b`));
      const { fields } = (JSON.parse((await send(req)).body.toString("utf8")) as { error: { details: { fields: { path: string }[] } } }).error.details;
      expect([...new Set(fields.map((f) => f.path.split(".")[0]))], req.target).toEqual([field]);
    }
  });
});
