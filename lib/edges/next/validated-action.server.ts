/**
 * The one way to write a server action: it names who may call it and the zod schema of its
 * form, then the wrapper resolves the restaurant, checks the session and the limits (staff
 * actions: per address and per session, decision 0041) before it parses the form, runs the
 * action, and returns one state shape to `useActionState` — `{ ok: true, data }` or
 * `{ ok: false, error, code }` with the error in the screen's language. Nothing is thrown at
 * the UI except Next's own redirects.
 */
import { cookies, headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { slugSchema, type StaffRole, type Tenant } from "@/lib/core/tenants";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import { getApp } from "@/lib/server/app-context";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { toAppError } from "@/lib/server/ops/translate-error.server";
import { noteActionCalled } from "@/lib/server/ops/request-context.server";
import { stampedClientAddress } from "@/lib/server/http/client-address.server";
import { AppError } from "@/lib/core/errors";
import { localizeError } from "./localize-error.server";
import { actionForm, fieldOfError, formObject } from "./form-data";

export { formList } from "./form-data";

/** `field`: the form field the error names, when it names one (a form may show the message beside it). */
export type ActionState<T> = { ok: true; data: T } | { ok: false; error: string; code: string; field?: string } | null;

const rootTranslator = () => getTranslations();
/** The request's translator (every namespace): schemas word their messages with it, and with it only (what a form parses into never depends on the language). */
export type Translator = Awaited<ReturnType<typeof rootTranslator>>;

export type FormAction<T> = (prev: ActionState<T>, form: FormData) => Promise<ActionState<T>>;

/** Every form names its restaurant in a `tenant` field. */
const tenantField = z.object({ tenant: slugSchema });

/**
 * The one guard every action passes first: the arguments are whatever the request's body
 * made of them, so anything but the form is refused before the app is touched.
 */
function formOf(args: readonly unknown[], arity: 1 | 2): FormData | null {
  // Next.js read the body into arguments: a 5xx from now on is not the body's (action-guard.server.ts).
  noteActionCalled();
  return actionForm(args, arity);
}

/** Each action's schema, made once per language: making it per call cost ~0.7 ms of CPU per kiosk order (zod builds as it goes). */
const schemas = new WeakMap<object, Map<string, z.ZodType>>();

/** `make`'s schema in the request's language; with `anyLanguage`, in whichever was made first (no look-up of the language). */
async function schemaIn<S extends z.ZodType>(make: (t: Translator) => S, anyLanguage = false): Promise<S> {
  let byLocale = schemas.get(make);
  if (!byLocale) schemas.set(make, (byLocale = new Map<string, z.ZodType>()));
  const made = anyLanguage ? (byLocale.values().next().value as S | undefined) : undefined;
  if (made) return made;
  const locale = await getLocale();
  let schema = byLocale.get(locale) as S | undefined;
  // The translator outlives its request inside the schema: schemas' messages use the language only, never the time zone.
  if (!schema) byLocale.set(locale, (schema = make(await rootTranslator())));
  return schema;
}

/**
 * `before` runs on the form's raw fields, before its schema: who calls and how often is
 * checked before the form's work (an anonymous caller hears "sign in", not the form's errors).
 */
async function run<S extends z.ZodType, C, T>(
  args: readonly unknown[],
  schema: (t: Translator) => S,
  before: (app: App, fields: Record<string, string | string[]>) => Promise<C>,
  body: (input: z.output<S>, ctx: C & { app: App }) => Promise<T>,
): Promise<ActionState<T>> {
  let app: App | undefined;
  const form = formOf(args, 2);
  const badInput = async () => (await rootTranslator())("common.errors.BAD_INPUT");
  try {
    if (!form) return { ok: false, error: await badInput(), code: "BAD_INPUT" };
    app = getApp();
    const fields = formObject(form);
    const ctx = await before(app, fields);
    // Whether a form parses, and into what, is the same in every language: only a refusal is worded in the request's
    // (reading the language cost ~5 % of the kiosk action's CPU).
    let parsed = (await schemaIn(schema, true)).safeParse(fields);
    if (!parsed.success) parsed = (await schemaIn(schema)).safeParse(fields);
    // The schema's messages are already in the screen's language.
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, error: issue?.message ?? (await badInput()), code: "BAD_INPUT", ...withField(issue ? fieldOfError(issue) : undefined) };
    }
    return { ok: true, data: await body(parsed.data, { ...ctx, app }) };
  } catch (e) {
    unstable_rethrow(e);
    const err = toAppError(e);
    if (err.code === "INTERNAL") app?.log.error({ err: e }, "unhandled error in server action");
    return {
      ok: false,
      error: await localizeError(err),
      code: err.code,
      ...withField(err.code === "BAD_INPUT" || err.code === "CONFLICT" ? fieldOfError(err) : undefined),
    };
  }
}

const withField = (field: string | undefined): { field?: string } => (field === undefined ? {} : { field });

/** An action for signed-in staff of one of `roles` (a manager may do everything). */
export function staffAction<S extends z.ZodType, T>(
  roles: readonly StaffRole[],
  schema: (t: Translator) => S,
  body: (input: z.output<S>, ctx: { app: App; caller: Caller }) => Promise<T>,
): FormAction<T> {
  return async (...args: unknown[]) =>
    run(
      args,
      schema,
      async (app, fields) => {
        await app.throttles.actionFrom(stampedClientAddress(await headers()));
        const tenant = await tenantOf(app, fields);
        const caller = await app.access.session((await cookies()).get(SESSION_COOKIE)?.value, tenant, roles);
        await app.throttles.actionBy(tenant.id, caller.client);
        return { caller };
      },
      body,
    );
}

/** An action anyone may call for one restaurant (sign-in, a customer's own order): the restaurant is resolved, nobody is. */
export function publicAction<S extends z.ZodType, T>(
  schema: (t: Translator) => S,
  body: (input: z.output<S>, ctx: { app: App; tenant: Tenant }) => Promise<T>,
): FormAction<T> {
  return async (...args: unknown[]) =>
    run(
      args,
      schema,
      async (_app, fields) => ({ fields }),
      async (input, { app, fields }) => body(input, { app, tenant: await tenantOf(app, fields) }),
    );
}

/** An action of no restaurant (the start page's address form). */
export function siteAction<S extends z.ZodType, T>(schema: (t: Translator) => S, body: (input: z.output<S>) => Promise<T>): FormAction<T> {
  return async (...args: unknown[]) =>
    run(
      args,
      schema,
      async () => ({}),
      (input) => body(input),
    );
}

/**
 * A plain `<form action>` that answers with a redirect, not a state (sign-out): the form is
 * still parsed by its schema; `body` gets null when it does not parse. Arguments that are no
 * form have no state to be told in: the action does nothing at all.
 */
export function redirectAction<S extends z.ZodType>(schema: S, body: (input: z.output<S> | null) => Promise<void>): (form: FormData) => Promise<void> {
  return async (...args: unknown[]) => {
    const form = formOf(args, 1);
    if (!form) return;
    const parsed = schema.safeParse(formObject(form));
    await body(parsed.success ? parsed.data : null);
  };
}

/** The restaurant the form names (none: BAD_INPUT, the form is not one of ours; unknown: NOT_FOUND). */
async function tenantOf(app: App, fields: Record<string, string | string[]>): Promise<Tenant> {
  const named = tenantField.safeParse(fields);
  if (!named.success) throw new AppError("BAD_INPUT", { message: "The form names no restaurant" });
  return app.tenants.get(named.data.tenant);
}
