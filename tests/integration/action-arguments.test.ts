/**
 * Server actions fed arguments their forms never send (issue #26: a served action called
 * with a junk body answered a 500): POSTed to the page that serves them, with a signed-in
 * session, every argument shape is the action's own refusal — a 200 whose RSC payload holds
 * `{ ok: false, …, "code": "BAD_INPUT" }` — and a body Next.js cannot make arguments of a
 * 400 in the error contract (lib/server/http/action-guard.server.ts); never a 5xx, nothing stored.
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
const sessions: Record<"KITCHEN" | "MANAGER", string> = { KITCHEN: "", MANAGER: "" };

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
  ...["[]", '["x"]', "[null,null]", "[1]", "{}", "[null,{}]", '[null,"x",3]', '["$K1"]', "", "x", "[", "null", "1", '"x"', '["$1"]'].map((body) => ({
    name: JSON.stringify(body),
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
