/**
 * Server-action requests checked before Next.js (lib/server/http/action-guard.server.ts), on a
 * production node behind a trusted loopback proxy, with clients on their own 127.x.y.z
 * addresses: an action posted to a page that does not serve it is refused (Next.js would
 * re-send it over loopback with the client's own X-Forwarded-For, charging whoever that
 * names), and an Origin or Host that does not parse or match is a 4xx in the error
 * contract, never a 500.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { parseResponse, rawHttp, requestBytes } from "../support/raw-http";
import { BoardSocket } from "../support/board-socket";

const databaseUrl = inject("databaseUrl");
const AUTH_FAILURES = 5;
let node: AppServer;
let t: TestTenant;
let signInAction: string;

beforeAll(async () => {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  signInAction = Object.entries(manifest.node).find(([, a]) => a.filename === "app/[tenant]/sign-in/actions.ts" && a.exportedName === "signIn")![0];
  const slug = uniqueSlug("guard");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  node = await startAppServer({
    databaseUrl,
    keyPrefix: testKeyPrefix("guard"),
    env: { TRUST_PROXY: "loopback", AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES) },
  });
}, 120_000);
afterAll(async () => {
  await node?.stop();
});

/** A request from the client at `from` (a loopback address of its own), as node:http sends it. */
function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; json: unknown; text: string; actionNotFound: string | undefined; build: string | undefined }> {
  const port = Number(new URL(node.url).port);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, localAddress: from, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({
            status: res.statusCode ?? 0,
            json,
            text,
            actionNotFound: res.headers["x-nextjs-action-not-found"] as string | undefined,
            build: res.headers["x-nextup-build"] as string | undefined,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The sign-in action's call as the browser's router sends it (multipart, one form). */
function actionBody(code: string): { body: string; type: string } {
  const boundary = "----nextupguard";
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return {
    body: `${field("1_tenant", t.slug)}${field("1_role", "KITCHEN")}${field("1_code", code)}${field("0", '[null,"$K1"]')}--${boundary}--\r\n`,
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

const host = () => new URL(node.url).host;

describe("server actions before Next.js", () => {
  it("an action posted to a page that does not serve it is refused, and charges nobody — not the client X-Forwarded-For names", async () => {
    const { body, type } = actionBody("wrong-code-0000");
    for (let i = 0; i < AUTH_FAILURES * 2; i++) {
      const res = await send(
        "127.0.4.4",
        "POST",
        "/",
        { "next-action": signInAction, "content-type": type, origin: `http://${host()}`, host: host(), "x-forwarded-for": "127.0.9.9" },
        body,
      );
      expect({ i, status: res.status, json: res.json, mark: res.actionNotFound }).toMatchObject({
        i,
        status: 404,
        json: { error: { code: "NOT_FOUND" } },
        mark: "1",
      });
    }
    // The address those requests named is not locked out.
    const own = await send("127.0.9.9", "GET", `/api/v1/orgs/${t.slug}/orders`, { authorization: `Bearer ${t.apiKeys.cashier}`, host: host() });
    expect(own.status).toBe(200);
    // On its own page the same request is handed on and the action runs: Next.js' action answer
    // (an RSC stream whose row 1 is the action's own { ok, error, code }), not the guard's JSON.
    const page = await send(
      "127.0.4.4",
      "POST",
      `/${t.slug}/sign-in`,
      { "next-action": signInAction, "content-type": type, origin: `http://${host()}`, host: host() },
      body,
    );
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/^0:\{"a":"\$@1"/);
    // The sign-in form's own refusal (no role chosen), naming its field: the action ran.
    expect(page.text).toMatch(/\n1:\{"ok":false,"error":"[^"]+","code":"BAD_INPUT","field":"role"\}/);
  });

  it("an action of no page of this build (a page from before an update) is told so, with the build, in the error contract", async () => {
    const build = readFileSync(".next/BUILD_ID", "utf8").trim();
    const { body, type } = actionBody("wrong-code-0000");
    // As an id of another build looks: the same shape as this one's, unknown here.
    const other = signInAction.slice(0, 2) + "f".repeat(signInAction.length - 2);
    for (const path of [`/${t.slug}/sign-in`, "/"]) {
      const res = await send("127.0.4.6", "POST", path, { "next-action": other, "content-type": type, origin: `http://${host()}`, host: host() }, body);
      expect({ status: res.status, json: res.json, mark: res.actionNotFound, build: res.build }).toEqual({
        status: 404,
        json: {
          error: {
            code: "NOT_FOUND",
            message: "This page is from an older version of Nextup. Reload it and send again.",
            details: { reason: "newBuild", build },
          },
        },
        mark: "1",
        build,
      });
    }
    // Screens hear the build on connect: one of another build reloads.
    const socket = await BoardSocket.connect(node.url, t.slug);
    try {
      await expect.poll(() => socket.build).toBe(build);
    } finally {
      socket.close();
    }
  });

  it.each([
    ["an Origin that is not a URL", "foo"],
    ["a null Origin", "null"],
    ["an Origin of another site", "http://evil.example"],
    ["an Origin of another port", "http://127.0.0.1:1"],
  ])("%s is a 403 in the error contract, never a 500", async (_, origin) => {
    const { body, type } = actionBody("wrong-code-0000");
    const res = await send("127.0.4.5", "POST", `/${t.slug}/sign-in`, { "next-action": signInAction, "content-type": type, origin, host: host() }, body);
    expect({ status: res.status, json: res.json }).toMatchObject({ status: 403, json: { error: { code: "FORBIDDEN" } } });
  });

  it("a malformed Host is a 400 in the error contract, on a page, an action and the API", async () => {
    const port = Number(new URL(node.url).port);
    const targets = [`/${t.slug}/board`, `/${t.slug}/sign-in`, `/api/v1/orgs/${t.slug}/board`];
    // Non-ASCII bytes too: a Host of such bytes hung a connection (found by the fuzz, seed 7).
    for (const [target, badHost] of targets.flatMap((x) => ["[::1", "\xe1\x81\xaf", "\xe1\xaf\x9f"].map((h) => [x, h] as const))) {
      const result = await rawHttp(
        port,
        requestBytes(
          {
            method: target.endsWith("sign-in") ? "POST" : "GET",
            target,
            headers: [
              ["Host", badHost],
              ["Next-Action", signInAction],
            ],
          },
          "",
        ),
        5_000,
      );
      expect(result.kind).toBe("response");
      const response = result.kind === "response" ? result.response : parseResponse(Buffer.alloc(0))!;
      expect({ target, badHost, status: response.status }).toEqual({ target, badHost, status: 400 });
      expect(JSON.parse(response.body.toString("utf8"))).toMatchObject({ error: { code: "BAD_INPUT" } });
    }
  });
});
