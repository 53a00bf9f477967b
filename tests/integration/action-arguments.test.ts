/**
 * Server actions fed arguments their forms never send (issue #26: a served action called
 * with a junk body answered a 500; issue #35: every action on every page that serves it):
 * POSTed to the page that serves them, signed in as that page's staff, every argument shape
 * is the action's own refusal — a 200 whose RSC payload holds `{ ok: false, …, "code":
 * "BAD_INPUT" }` — and a body Next.js cannot make arguments of, or will not take, a 4xx in
 * the error contract (lib/server/http/action-guard.server.ts); never a 5xx, nothing stored.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { signInOverHttp } from "../support/forms";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { tenantState } from "../support/tenant-state";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const keyPrefix = inject("keyPrefix");
const redisUrl = inject("redisUrl");

let t: TestTenant;
let db: pg.Client;
let redis: Redis;
const sessions: Record<"KITCHEN" | "MANAGER" | "CASHIER", string> = { KITCHEN: "", MANAGER: "", CASHIER: "" };

/** The build's actions by id (`npm run build` writes the manifest). */
const manifest = () =>
  (
    JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
      node: Record<string, { filename: string; exportedName: string; workers: Record<string, unknown> }>;
    }
  ).node;

/** The id of `file`'s export `name`. */
function actionId(file: string, name: string): string {
  const id = Object.entries(manifest()).find(([, a]) => a.filename === file && a.exportedName === name)?.[0];
  if (!id) throw new Error(`${file}#${name} is not in the build's manifest: run \`npm run build\``);
  return id;
}

beforeAll(async () => {
  const slug = uniqueSlug("action-args");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  for (const [role, code] of [
    ["KITCHEN", t.staff.kitchen],
    ["MANAGER", t.staff.manager],
    ["CASHIER", t.staff.cashier],
  ] as const) {
    const res = await signInOverHttp(baseUrl, slug, role, code);
    expect(res.status).toBe(303);
    sessions[role] = res.sessionCookie!;
  }
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await db?.end();
});

/** Argument bodies no form of the app sends: JSON (text/plain, as encodeReply sends plain values) or multipart. */
const JUNK: { name: string; type: string; body: string }[] = [
  ...[
    "[]",
    '["x"]',
    "[null,null]",
    "[1]",
    "[1,2,3]",
    "{}",
    "[null,{}]",
    '[null,{"tenant":"x","id":"x","status":"READY"}]',
    '[null,"x",3]',
    "[null,1]",
    "[null,true]",
    "[null,[]]",
    "[[[[[[[[]]]]]]]]",
    `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
    `["${"x".repeat(600_000)}"]`,
    `["${"x".repeat(1_200_000)}"]`,
    '["$K1"]',
    '[null,"$T"]',
    '[null,"$Q1"]',
    '[null,"$n1"]',
    '[null,"$D2026-01-01"]',
    '[null,"$@1"]',
    "",
    "x",
    "[",
    "null",
    "1",
    '"x"',
    '["$1"]',
  ].map((body) => ({
    name: JSON.stringify(body.length > 60 ? `${body.slice(0, 20)}… (${body.length} characters)` : body),
    type: "text/plain;charset=UTF-8",
    body,
  })),
  ...[
    ["no fields", ""],
    ["a form but no arguments", '--b\r\nContent-Disposition: form-data; name="1_id"\r\n\r\nx\r\n'],
    [
      "the form first",
      '--b\r\nContent-Disposition: form-data; name="1_id"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$K1",null]\r\n',
    ],
    [
      "an extra argument",
      '--b\r\nContent-Disposition: form-data; name="1_id"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n[null,"$K1",7]\r\n',
    ],
    ["arguments that are no JSON", '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n[null,\r\n'],
    [
      "a form alone, not in a list",
      '--b\r\nContent-Disposition: form-data; name="_1_tenant"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n"$K1"\r\n',
    ],
    ["an object for the form", '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n[null,{"tenant":"x"}]\r\n'],
    [
      "files and garbage beside a form and an extra argument",
      '--b\r\nContent-Disposition: form-data; name="_1_tenant"; filename="t.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n' +
        '--b\r\nContent-Disposition: form-data; name="_1_\u0000"\r\n\r\n\u0000\r\n--b\r\nContent-Disposition: form-data; name="junk"\r\n\r\n[[[\r\n' +
        '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n[{"ok":true},"$K1",{"x":1}]\r\n',
    ],
  ].map(([name, parts]) => ({ name: `multipart, ${name}`, type: "multipart/form-data; boundary=b", body: `${parts}--b--\r\n` })),
];

/** POSTs `body` as a call of `file`'s `action` on `/{slug}/{page}`, signed in as `role`. */
async function post(
  page: string,
  file: string,
  action: string,
  role: keyof typeof sessions,
  type: string,
  body: string,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}/${t.slug}/${page}?lang=en`, {
    method: "POST",
    headers: {
      "next-action": actionId(file, action),
      accept: "text/x-component",
      "content-type": type,
      origin: baseUrl,
      cookie: `nextup_session=${sessions[role]}`,
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe.each([
  { page: "kitchen", file: "app/[tenant]/kitchen/actions.ts", action: "changeOrderStatus", role: "KITCHEN" as const },
  { page: "manager", file: "app/[tenant]/manager/actions.ts", action: "startShift", role: "MANAGER" as const },
])("$action on its own page, signed in, with junk arguments", ({ page, file, action, role }) => {
  it.each(JUNK)("$name: the action's BAD_INPUT state, or a 400 when Next.js cannot read the body; nothing stored", async ({ type, body }) => {
    const before = await tenantState(db, redis, keyPrefix, t.id);
    const { status, text } = await post(page, file, action, role, type, body);
    const what = `${status} ${text.slice(0, 300)}`;
    if (status === 200) expect(text, what).toMatch(/\n1:\{"ok":false,"error":"Please check what you typed\.","code":"BAD_INPUT"\}/);
    else expect({ status, body: JSON.parse(text) as unknown }, what).toMatchObject({ status: 400, body: { error: { code: "BAD_INPUT" } } });
    expect(await tenantState(db, redis, keyPrefix, t.id)).toEqual(before);
  });
});

it("every action of the build, on a page that serves it: no arguments are its BAD_INPUT state (sign-out: nothing), a body that is none a 400", async () => {
  const actions = Object.entries(manifest());
  expect(actions.length).toBeGreaterThanOrEqual(20);
  const before = await tenantState(db, redis, keyPrefix, t.id);
  for (const [id, { exportedName, workers }] of actions) {
    const page =
      Object.keys(workers)[0]!
        .replace(/^app/, "")
        .replace(/\/page$/, "")
        .replace("[tenant]", t.slug)
        .replace("[orderId]", "x") || "/";
    for (const body of ["[]", "["]) {
      const res = await fetch(`${baseUrl}${page}?lang=en`, {
        method: "POST",
        headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", origin: baseUrl, cookie: `nextup_session=${sessions.MANAGER}` },
        body,
      });
      const text = await res.text();
      const what = `${exportedName} on ${page} with ${body}: ${res.status} ${text.slice(0, 200)}`;
      if (body === "[") expect(res.status, what).toBe(400);
      else if (exportedName === "signOut") expect(text, what).toMatch(/\n1:"\$undefined"\n/);
      else expect(text, what).toMatch(/\n1:\{"ok":false,"error":"Please check what you typed\.","code":"BAD_INPUT"\}/);
    }
  }
  expect(await tenantState(db, redis, keyPrefix, t.id)).toEqual(before);
});

it("sign-out fed junk arguments signs nobody out and answers no 5xx", async () => {
  // `["$K1"]` is one (empty) form: sign-out's own shape, which signs out whatever the form holds.
  for (const { type, body } of JUNK.filter((j) => j.body !== '["$K1"]')) {
    const { status } = await post("kitchen", "app/[tenant]/sign-in/actions.ts", "signOut", "KITCHEN", type, body);
    expect([200, 400], body).toContain(status);
  }
  const page = await fetch(`${baseUrl}/${t.slug}/kitchen`, { headers: { cookie: `nextup_session=${sessions.KITCHEN}` }, redirect: "manual" });
  await page.body?.cancel();
  expect(page.status).toBe(200);
});

it("a form without JavaScript whose bound arguments Next.js cannot read is a 400 in the error contract, not its 500 error page", async () => {
  const part = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const bound = JSON.stringify({ id: actionId("app/[tenant]/sign-in/actions.ts", "signIn"), bound: "$@1" });
  const res = await fetch(`${baseUrl}/${t.slug}/sign-in`, {
    method: "POST",
    headers: { "content-type": "multipart/form-data; boundary=b", origin: baseUrl },
    body: `${part("$ACTION_REF_1", "")}${part("$ACTION_1:0", bound)}${part("$ACTION_1:1", "[")}${part("role", "KITCHEN")}--b--\r\n`,
  });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 400, body: { error: { code: "BAD_INPUT" } } });
});

/** Every action the build serves, on each page that serves it, with the staff a page is for (a manager elsewhere). */
function servedPairs(): { id: string; name: string; page: string; role: keyof typeof sessions }[] {
  return Object.entries(manifest()).flatMap(([id, { exportedName, workers }]) =>
    Object.keys(workers).map((worker) => {
      const page = worker.replace(/^app/, "").replace(/\/page$/, "") || "/";
      const role = page.endsWith("/kiosk") ? "CASHIER" : page.endsWith("/kitchen") ? "KITCHEN" : "MANAGER";
      return { id, name: exportedName, page: page.replace("[tenant]", t.slug).replace("[orderId]", "x"), role } as const;
    }),
  );
}

/** POSTs `body` to `page` as a call of the action `id`, signed in as `role`. */
async function call(page: string, id: string, role: keyof typeof sessions, type: string, body: string | FormData, fetchAction = true) {
  const headers: Record<string, string> = { origin: baseUrl, cookie: `nextup_session=${sessions[role]}` };
  if (fetchAction) Object.assign(headers, { "next-action": id, accept: "text/x-component" });
  if (type) headers["content-type"] = type;
  const res = await fetch(`${baseUrl}${page}?lang=en`, { method: "POST", headers, body, redirect: "manual" });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** A refusal in the error contract: JSON `{"error":{"code","message"}}` with its code's status. */
function expectContract(answer: { status: number; type: string; text: string }, what: string, codes: Record<number, string>): void {
  expect(answer.type, what).toMatch(/^application\/json/);
  const code = codes[answer.status];
  expect(code, what).toBeDefined();
  expect(JSON.parse(answer.text), what).toEqual({ error: { code, message: expect.any(String) as string } });
}

describe("every action on every page that serves it (issue #35)", () => {
  // Every served action × page × junk shape, one after another: over a minute on a busy machine (issue #41 added actions).
  it("signed in as that page's staff, every junk argument shape is the action's BAD_INPUT state (sign-out: nothing) or a 4xx in the contract, never a 5xx; nothing stored", async () => {
    const pairs = servedPairs();
    // Not vacuous: the staff screens and the public ones are all there.
    for (const page of ["kiosk", "kitchen", "manager", "manager/menu", "sign-in", "o/x"]) expect(pairs.map((p) => p.page)).toContain(`/${t.slug}/${page}`);
    const before = await tenantState(db, redis, keyPrefix, t.id);
    for (const { id, name, page, role } of pairs) {
      // One empty form is sign-out's own call: it signs out whatever the form holds.
      for (const { name: shape, type, body } of JUNK.filter((j) => name !== "signOut" || j.body !== '["$K1"]')) {
        const answer = await call(page, id, role, type, body);
        const what = `${name} on ${page} as ${role}, ${shape}: ${answer.status} ${answer.text.slice(0, 200)}`;
        if (answer.status === 200)
          expect(answer.text, what).toMatch(name === "signOut" ? /\n1:"\$undefined"\n/ : /\n1:\{"ok":false,"error":"[^"]+","code":"BAD_INPUT"\}/);
        else expectContract(answer, what, { 400: "BAD_INPUT" });
      }
    }
    expect(await tenantState(db, redis, keyPrefix, t.id)).toEqual(before);
  }, 240_000);

  it("a form whose fields are all files or repeated is refused by the action (never INTERNAL, never a 5xx); nothing stored", async () => {
    const before = await tenantState(db, redis, keyPrefix, t.id);
    const fields = ["tenant", "id", "status", "number", "orderId", "name", "op", "role", "code", "slug", "url", "host", "series", "itemName", "note"];
    for (const { id, name, page, role } of servedPairs().filter((p) => p.name !== "signOut")) {
      const form = new FormData();
      fields.forEach((f, i) => (i % 2 ? [t.slug, "x\u0000"].forEach((v) => form.append(`_1_${f}`, v)) : form.append(`_1_${f}`, new Blob(["x"]), "f.txt")));
      form.append("0", '[null,"$K1"]');
      const answer = await call(page, id, role, "", form);
      const what = `${name} on ${page}: ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, what).toBe(200);
      expect(answer.text, what).toMatch(/\n1:\{"ok":false,"error":"[^"]+","code":"(BAD_INPUT|NOT_FOUND)"/);
    }
    expect(await tenantState(db, redis, keyPrefix, t.id)).toEqual(before);
  });

  it("a served action called with a url-encoded body (which Next.js does not take) is a 400 in the contract, not Next's HTML 404 page", async () => {
    for (const { id, name, page, role } of servedPairs()) {
      const answer = await call(page, id, role, "application/x-www-form-urlencoded", `tenant=${t.slug}&id=x`);
      expectContract(answer, `${name} on ${page}: ${answer.status} ${answer.type} ${answer.text.slice(0, 120)}`, { 400: "BAD_INPUT" });
    }
  });

  it("a form without JavaScript naming a served action with broken or unknown references is a 4xx in the contract, not Next's text/plain answer", async () => {
    const before = await tenantState(db, redis, keyPrefix, t.id);
    // Sign-out's form is the restaurant alone: any readable call of it is a real sign-out.
    for (const { id, name, page, role } of servedPairs().filter((p) => p.name !== "signOut")) {
      const variants: [string, [string, string][]][] = [
        ["a reference without its action", [["$ACTION_REF_1", ""]]],
        [
          "a reference to null",
          [
            ["$ACTION_REF_1", ""],
            ["$ACTION_1:0", "null"],
          ],
        ],
        [
          "a reference to a list",
          [
            ["$ACTION_REF_1", ""],
            ["$ACTION_1:0", "[]"],
          ],
        ],
        [
          "a reference that is no JSON",
          [
            ["$ACTION_REF_1", ""],
            ["$ACTION_1:0", "x"],
          ],
        ],
        [
          "two action ids",
          [
            [`$ACTION_ID_${id}`, ""],
            [`$ACTION_ID_${id}0`, ""],
          ],
        ],
        ["an action id the build never had", [[`$ACTION_ID_${"0".repeat(42)}`, ""]]],
        [
          "bound arguments that are never sent",
          [
            ["$ACTION_REF_1", ""],
            ["$ACTION_1:0", JSON.stringify({ id, bound: "$@2" })],
          ],
        ],
      ];
      for (const [shape, parts] of variants) {
        const form = new FormData();
        for (const [k, v] of parts) form.append(k, v);
        form.append("tenant", t.slug);
        const answer = await call(page, id, role, "", form, false);
        const what = `${name} on ${page}, ${shape}: ${answer.status} ${answer.type} ${answer.text.slice(0, 120)}`;
        expect(answer.status, what).toBeLessThan(500);
        // Once the action ran, the page renders; the order page of an order that does not exist ("x") is its HTML 404.
        const ownPage = page.includes("/o/") && answer.status === 404 && answer.type.startsWith("text/html");
        if (answer.status >= 400 && !ownPage) expectContract(answer, what, { 400: "BAD_INPUT", 404: "NOT_FOUND" });
      }
    }
    expect(await tenantState(db, redis, keyPrefix, t.id)).toEqual(before);
  });

  it("regression: `[]` to each action the kitchen serves is its BAD_INPUT state, not a 500", async () => {
    const kitchen = servedPairs().filter((p) => p.page === `/${t.slug}/kitchen` && p.name !== "signOut");
    expect(kitchen.map((p) => p.name)).toEqual(expect.arrayContaining(["changeOrderStatus", "callOrderAgain", "advanceTypedNumber", "readKitchen"]));
    for (const { id, name } of kitchen) {
      const answer = await call(`/${t.slug}/kitchen`, id, "KITCHEN", "text/plain;charset=UTF-8", "[]");
      expect({ name, status: answer.status }).toEqual({ name, status: 200 });
      expect(answer.text, name).toMatch(/\n1:\{"ok":false,"error":"Please check what you typed\.","code":"BAD_INPUT"\}/);
    }
  });
});
