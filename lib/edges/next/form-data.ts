/** FormData as the object a zod schema reads. Pure (no server imports), so unit-tested. */
import { z } from "zod";

/** A form's fields as an object: a field sent once is a string, a repeated one an array. */
export function formObject(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/**
 * The form among an action's arguments as React sends them — `(prev, form)`, or `(form)` for
 * a plain `<form action>` — or null for any other shape: a hand-made request can make them
 * anything (`[]`, `[1]`, `{}`, an extra argument), and that is bad input, not a crash.
 */
export function actionForm(args: readonly unknown[], arity: 1 | 2): FormData | null {
  const form = args.length === arity ? args[arity - 1] : undefined;
  return form instanceof FormData ? form : null;
}

/** A repeated form field (e.g. one per item row): always an array, even with one row or none. */
export const formList = <S extends z.ZodType>(item: S) =>
  z.preprocess((v): unknown[] => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]), z.array(item));

/**
 * The form field an error names, when it names one: a zod issue's path (`["host"]`), or an
 * AppError's `details.fields[0].path` ("host", "items.0.name"): its first segment. Undefined otherwise.
 */
export function fieldOfError(source: { path?: readonly PropertyKey[]; details?: unknown }): string | undefined {
  if (source.path && source.path.length > 0) return typeof source.path[0] === "string" ? source.path[0] : undefined;
  const fields = (source.details as { fields?: unknown } | null | undefined)?.fields;
  const path = Array.isArray(fields) ? (fields[0] as { path?: unknown } | undefined)?.path : undefined;
  return typeof path === "string" && path !== "" ? path.split(".")[0] : undefined;
}
