import { describe, expect, it } from "vitest";
import { fails } from "../support/app-error";
import {
  availabilitySchema,
  categoryPatchSchema,
  formatCents,
  groupMenu,
  itemPatchSchema,
  moveWithin,
  newCategorySchema,
  newItemSchema,
  nextPosition,
  priceTextToCents,
  resolveOrderLines,
  sameName,
  type OrderableItem,
} from "@/lib/core/menu";
import { newOrderSchema, parseOrThrow } from "@/lib/core/orders";

const CAT = "00000000-0000-4000-8000-000000000001";
const item = (over: Partial<OrderableItem> & { id: string; name: string }): OrderableItem => ({
  stationId: null,
  optionGroups: [],
  categoryStationId: null,
  categoryOptionGroups: [],
  categoryId: CAT,
  priceCents: null,
  available: true,
  position: 0,
  ...over,
});

describe("menu input", () => {
  it("trims names and accepts 1–80 characters", () => {
    expect(parseOrThrow(newCategorySchema, { name: "  Noodles " }, "category")).toEqual({ name: "Noodles" });
    expect(parseOrThrow(newCategorySchema, { name: "x".repeat(80) }, "category").name).toHaveLength(80);
  });

  it.each([
    ["empty name", newCategorySchema, { name: "   " }, "name"],
    ["name too long", newCategorySchema, { name: "x".repeat(81) }, "name"],
    ["unknown field", newCategorySchema, { name: "A", colour: "red" }, "(body)"],
    ["negative price", newItemSchema, { categoryId: CAT, name: "A", priceCents: -1 }, "priceCents"],
    ["fractional price", newItemSchema, { categoryId: CAT, name: "A", priceCents: 1.5 }, "priceCents"],
    ["bad category id", newItemSchema, { categoryId: "nope", name: "A" }, "categoryId"],
    ["position not whole", newItemSchema, { categoryId: CAT, name: "A", position: 0.5 }, "position"],
    ["available not boolean", itemPatchSchema, { available: "yes" }, "available"],
    ["empty patch", categoryPatchSchema, {}, "(body)"],
  ] as const)("refuses %s, naming the field", (_what, schema, input, path) => {
    const e = fails(() => parseOrThrow(schema, input, "menu"));
    expect(e.code).toBe("BAD_INPUT");
    expect((e.details as { fields: { path: string }[] }).fields.map((f) => f.path)).toContain(path);
  });

  it("accepts a null price (no price shown) and a zero price", () => {
    expect(parseOrThrow(itemPatchSchema, { priceCents: null }, "item")).toEqual({ priceCents: null });
    expect(parseOrThrow(newItemSchema, { categoryId: CAT, name: "Water", priceCents: 0 }, "item").priceCents).toBe(0);
  });

  it("reads typed prices as cents and writes them back", () => {
    expect(priceTextToCents("12")).toBe(1200);
    expect(priceTextToCents(" 12.5 ")).toBe(1250);
    expect(priceTextToCents("12,05")).toBe(1205);
    expect(priceTextToCents("")).toBeNull();
    for (const bad of ["-1", "1.234", "abc", "1e3"]) expect(priceTextToCents(bad)).toBeNaN();
    expect(formatCents(1205)).toBe("12.05");
    expect(formatCents(0)).toBe("0.00");
  });

  it("compares names ignoring case and spaces", () => {
    expect(sameName("Beef noodles", " beef NOODLES ")).toBe(true);
    expect(sameName("Beef noodles", "Beef noodle")).toBe(false);
  });
});

describe("menu order", () => {
  const a = item({ id: "a", name: "Alpha", position: 2 });
  const b = item({ id: "b", name: "Bravo", position: 0 });
  const c = item({ id: "c", name: "Charlie", position: 1 });

  it("groups items under categories, both by position", () => {
    const other = "00000000-0000-4000-8000-000000000002";
    const menu = groupMenu(
      [
        { id: other, name: "Drinks", position: 1, stationId: null, optionGroups: [] },
        { id: CAT, name: "Noodles", position: 0, stationId: null, optionGroups: [] },
      ],
      [a, b, c, item({ id: "t", name: "Tea", categoryId: other, available: false })],
    );
    expect(menu.map((s) => s.name)).toEqual(["Noodles", "Drinks"]);
    expect(menu[0]!.items.map((i) => i.id)).toEqual(["b", "c", "a"]);
    expect(
      groupMenu(
        [{ id: other, name: "Drinks", position: 0, stationId: null, optionGroups: [] }],
        [item({ id: "t", name: "Tea", categoryId: other, available: false })],
        {
          availableOnly: true,
        },
      )[0]!.items,
    ).toEqual([]);
  });

  it("puts a new entry last", () => {
    expect(nextPosition([])).toBe(0);
    expect(nextPosition([a, b, c])).toBe(3);
  });

  it("moves an entry up or down by renumbering its siblings; nothing at the ends", () => {
    // Order is b(0), c(1), a(2).
    expect(moveWithin([a, b, c], "a", "up")).toEqual([
      { id: "a", position: 1 },
      { id: "c", position: 2 },
    ]);
    expect(moveWithin([a, b, c], "b", "down")).toEqual([
      { id: "c", position: 0 },
      { id: "b", position: 1 },
    ]);
    expect(moveWithin([a, b, c], "b", "up")).toEqual([]);
    expect(moveWithin([a, b, c], "a", "down")).toEqual([]);
    // Equal positions (e.g. set through the API) are untangled by the same move.
    const tied = [item({ id: "x", name: "X" }), item({ id: "y", name: "Y" })];
    expect(moveWithin(tied, "y", "up")).toEqual([{ id: "x", position: 1 }]);
  });
});

describe("turning a kiosk selection into order items", () => {
  const beef = item({ id: "11111111-1111-4111-8111-111111111111", name: "Beef noodles", priceCents: 1250 });
  const tea = item({ id: "22222222-2222-4222-8222-222222222222", name: "Tea" });
  const buns = item({ id: "33333333-3333-4333-8333-333333333333", name: "Pork buns", available: false });

  it("copies the menu item's name, id and price; keeps free-text lines as they are", () => {
    const lines = parseOrThrow(
      newOrderSchema,
      {
        items: [
          { menuItemId: beef.id, qty: 2 },
          { name: "Extra egg", qty: 1 },
          { menuItemId: tea.id, qty: 1 },
        ],
      },
      "order",
    ).items;
    expect(resolveOrderLines(lines, [beef, tea])).toEqual([
      { name: "Beef noodles", qty: 2, menuItemId: beef.id, priceCents: 1250 },
      { name: "Extra egg", qty: 1 },
      { name: "Tea", qty: 1, menuItemId: tea.id },
    ]);
  });

  it("refuses an unknown (or another restaurant's) item with 400, naming the line", () => {
    const e = fails(() =>
      resolveOrderLines(
        [
          { name: "Tea", qty: 1 },
          { menuItemId: buns.id.replace("3", "4"), qty: 1 },
        ],
        [beef, tea, buns],
      ),
    );
    expect(e.code).toBe("BAD_INPUT");
    expect(e.message).toContain("items.1.menuItemId");
  });

  it("refuses a sold-out item with 409, saying which", () => {
    const e = fails(() => resolveOrderLines([{ menuItemId: buns.id, qty: 1 }], [buns]));
    expect(e.code).toBe("CONFLICT");
    expect(e.userMessage).toContain("Pork buns");
    expect(e.reason).toBe("menuItemUnavailable");
  });

  it("an order line is a name or a menuItemId, exactly one", () => {
    const neither = fails(() => parseOrThrow(newOrderSchema, { items: [{ qty: 1 }] }, "order"));
    expect(neither.message).toContain("items.0.name");
    const both = fails(() => parseOrThrow(newOrderSchema, { items: [{ name: "Tea", menuItemId: tea.id, qty: 1 }] }, "order"));
    expect(both.message).toContain("items.0.menuItemId");
    const badId = fails(() => parseOrThrow(newOrderSchema, { items: [{ menuItemId: "42", qty: 1 }] }, "order"));
    expect(badId.message).toContain("items.0.menuItemId");
  });
});

describe("availabilitySchema (sold out or back)", () => {
  it("takes a boolean `available` and nothing else", () => {
    expect(parseOrThrow(availabilitySchema, { available: false }, "menu item")).toEqual({ available: false });
    expect(parseOrThrow(availabilitySchema, { available: true }, "menu item")).toEqual({ available: true });
  });

  it.each([
    ["no field", {}, "available: Available must be true or false"],
    ["a string", { available: "false" }, "available: Available must be true or false"],
    ["null", { available: null }, "available: Available must be true or false"],
    ["another field too", { available: false, name: "Soup" }, "name"],
  ])("refuses %s, naming the field", (_what, body, said) => {
    const err = fails(() => parseOrThrow(availabilitySchema, body, "menu item"));
    expect(err.code).toBe("BAD_INPUT");
    expect(err.userMessage).toContain(said);
  });
});
