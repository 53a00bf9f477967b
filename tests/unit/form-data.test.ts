import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formList, formObject } from "@/lib/edges/next/form-data";

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
