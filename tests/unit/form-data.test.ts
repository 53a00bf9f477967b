import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actionForm, fieldOfError, formList, formObject } from "@/lib/edges/next/form-data";

describe("a server action's form as an object", () => {
  it("keeps a field sent once as a string, a repeated one as an array, and drops Next's own fields", () => {
    const form = new FormData();
    form.set("tenant", "demo");
    form.append("itemName", "Noodles");
    form.append("itemName", "Tea");
    form.set("$ACTION_ID_abc", "");
    expect(formObject(form)).toEqual({ tenant: "demo", itemName: ["Noodles", "Tea"] });
  });

  it("reads a repeated field as a list whether it came zero, one or several times", () => {
    const schema = z.object({ itemName: formList(z.string()) });
    expect(schema.parse({})).toEqual({ itemName: [] });
    expect(schema.parse({ itemName: "Tea" })).toEqual({ itemName: ["Tea"] });
    expect(schema.parse({ itemName: ["Tea", "Rice"] })).toEqual({ itemName: ["Tea", "Rice"] });
  });
});

describe("a server action's arguments", () => {
  const form = new FormData();

  it("are its form in its place: second after the previous state, or alone for a plain form action", () => {
    expect(actionForm([null, form], 2)).toBe(form);
    expect(actionForm([{ ok: true, data: 1 }, form], 2)).toBe(form);
    expect(actionForm([form], 1)).toBe(form);
  });

  it("of any other shape are no form: missing, of another type, out of place, or with an extra argument", () => {
    for (const args of [[], ["x"], [null, null], [1], [null, "x"], [null, {}], [form, null], [null, form, 7], [form]])
      expect(actionForm(args, 2), JSON.stringify(args)).toBeNull();
    for (const args of [[], [null], ["x"], [{}], [form, null], [null, form]]) expect(actionForm(args, 1), JSON.stringify(args)).toBeNull();
  });
});

describe("the form field an error names", () => {
  it("reads a zod issue's path, or an AppError's details.fields, and nothing else", () => {
    expect(fieldOfError({ path: ["host"] })).toBe("host");
    expect(fieldOfError({ path: [0] })).toBeUndefined();
    expect(fieldOfError({ path: [], details: { fields: [{ path: "series", message: "x" }] } })).toBe("series");
    expect(fieldOfError({ details: { fields: [{ path: "items.0.name", message: "x" }] } })).toBe("items");
    expect(fieldOfError({ details: { fields: [] } })).toBeUndefined();
    expect(fieldOfError({ details: "host" })).toBeUndefined();
    expect(fieldOfError({})).toBeUndefined();
  });
});
