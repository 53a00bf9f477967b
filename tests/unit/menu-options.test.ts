import { describe, expect, it } from "vitest";
import { fails } from "../support/app-error";
import { resolveOrderLines, newItemSchema, itemPatchSchema, type OrderableItem } from "@/lib/core/menu";
import { effectiveGroups, lineLabel, optionGroupsSchema, resolveOptions, toOptionGroups, unitPrice, type OptionGroup } from "@/lib/core/menu-options";
import { newOrderSchema, parseOrThrow, serviceOf } from "@/lib/core/orders";

const groups = (input: unknown): OptionGroup[] => parseOrThrow(optionGroupsSchema, input, "option groups");

const [size, spice, extras] = groups([
  {
    name: "Size",
    required: true,
    options: [
      { name: "Small", priceCents: 0 },
      { name: "Large", priceCents: 200 },
    ],
  },
  { name: "Spice", required: true, min: 1, max: 1, options: [{ name: "Mild" }, { name: "Extra spicy" }] },
  {
    name: "Extras",
    options: [
      { name: "Egg", priceCents: 150 },
      { name: "Extra noodles", priceCents: 250 },
      { name: "None", priceCents: 0 },
    ],
  },
]) as [OptionGroup, OptionGroup, OptionGroup];

describe("option groups as a manager sends them", () => {
  it("makes ids, reads required alone as exactly one and an optional group without max as any of its options", () => {
    expect(size).toMatchObject({ name: "Size", required: true, min: 1, max: 1 });
    expect(size.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(size.options.map((o) => o.id)).toHaveLength(2);
    expect(spice.options.map((o) => o.priceCents)).toEqual([0, 0]);
    expect(extras).toMatchObject({ required: false, min: 0, max: 3 });
  });

  it("keeps the ids it is sent, so an edit keeps what orders and screens refer to", () => {
    const [again] = groups([size]);
    expect(again).toEqual(size);
  });

  it.each([
    [[{ name: "Size", required: true, min: 0, options: [{ name: "S" }] }], "0.min", "A required group needs min 1 or more"],
    [[{ name: "Size", required: false, min: 1, options: [{ name: "S" }] }], "0.required", "A group with min 1 or more is required"],
    [[{ name: "Size", min: 2, max: 1, options: [{ name: "S" }, { name: "L" }] }], "0.min", "min must not be more than max"],
    [[{ name: "Size", max: 3, options: [{ name: "S" }, { name: "L" }] }], "0.max", "max must not be more than the group's options"],
    [[{ name: "Size", options: [{ name: "Large" }, { name: "large " }] }], "0.options", "Two options of a group have the same name"],
    [[{ name: "Size", options: [] }], "0.options", "A group needs at least one option"],
    [[{ name: "Size", options: [{ name: "S", priceCents: -1 }] }], "0.options.0.priceCents", "An option's price must be 0 or more"],
    [[{ name: "Size", options: [{ name: "S", priceCents: 1.5 }] }], "0.options.0.priceCents", "An option's price must be a whole number of cents"],
    [[{ name: "Size", options: [{ name: "S" }], colour: "red" }], "0", 'Unrecognized key: "colour"'],
    [
      [
        { name: "Size", options: [{ name: "S" }] },
        { name: "size", options: [{ name: "L" }] },
      ],
      "(body)",
      "Two option groups have the same name",
    ],
  ])("refuses %j naming %s", (input, path, message) => {
    const e = fails(() => groups(input));
    expect(e.code).toBe("BAD_INPUT");
    expect(e.details).toEqual({ fields: [{ path, message }] });
  });

  it("refuses more than 10 groups", () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `G${i}`, options: [{ name: "x" }] }));
    expect(fails(() => groups(many)).userMessage).toBe("At most 10 option groups");
  });

  it("are what POST and PATCH …/menu/items take", () => {
    const created = parseOrThrow(newItemSchema, { categoryId: "00000000-0000-4000-8000-000000000001", name: "Beef noodles", optionGroups: [size] }, "item");
    expect(created.optionGroups).toEqual([size]);
    expect(parseOrThrow(itemPatchSchema, { optionGroups: [] }, "item").optionGroups).toEqual([]);
  });

  it("reads stored groups back, dropping anything not shaped like one", () => {
    expect(toOptionGroups([size, { name: "no id" }, null, 3])).toEqual([size]);
    expect(toOptionGroups({ not: "an array" })).toEqual([]);
  });
});

describe("what a dish offers", () => {
  it("is its category's groups first, then its own; its own of the same name replaces the shared one", () => {
    const bigSpice = { ...spice, id: "own", options: [...spice.options, { id: "x", name: "Fire", priceCents: 0 }] };
    expect(effectiveGroups([spice, extras], [size]).map((g) => g.name)).toEqual(["Spice", "Extras", "Size"]);
    expect(effectiveGroups([spice, extras], [size, { ...bigSpice, name: "spice" }]).map((g) => g.id)).toEqual([extras.id, size.id, "own"]);
  });
});

describe("choosing options", () => {
  const dish = [size, spice, extras];

  it("takes ids, names and 'Group: Option', in any order, and answers in menu order with their prices", () => {
    const chosen = resolveOptions(dish, ["Extra spicy", size.options[1]!.id, "Extras: egg"], "items.0.options");
    expect(chosen).toEqual([
      { group: "Size", name: "Large", priceCents: 200 },
      { group: "Spice", name: "Extra spicy", priceCents: 0 },
      { group: "Extras", name: "Egg", priceCents: 150 },
    ]);
    expect(unitPrice(1250, chosen)).toBe(1600);
  });

  it.each([
    [["Mild"], "items.0.options", "choose a Size", "missingOption"],
    [["Large"], "items.0.options", "choose a Spice", "missingOption"],
    [["Large", "Small", "Mild"], "items.0.options", "choose only one Size", "tooManyOptions"],
    [["Large", "Mild", "Coriander"], "items.0.options.2", '"Coriander" is not an option of this dish', "unknownOption"],
    [["Large", "Mild", "large"], "items.0.options.2", '"Large" is chosen twice', "optionTwice"],
  ])("refuses %j at %s: %s", (chosen, path, message, reason) => {
    const e = fails(() => resolveOptions(dish, chosen, "items.0.options"));
    expect(e.code).toBe("BAD_INPUT");
    expect(e.reason).toBe(reason);
    expect(e.details).toEqual({ fields: [{ path, message }] });
  });

  it("asks for the group when a name is in two groups, and takes it with the group named", () => {
    const [toppings] = groups([{ name: "Toppings", options: [{ name: "None" }, { name: "Egg", priceCents: 100 }] }]);
    const both = [extras, toppings!];
    expect(fails(() => resolveOptions(both, ["None"], "p")).reason).toBe("ambiguousOption");
    expect(resolveOptions(both, ["Toppings: None"], "p")).toEqual([{ group: "Toppings", name: "None", priceCents: 0 }]);
  });

  it("needs at least min of a multi-choice group, and at most max", () => {
    const [two] = groups([{ name: "Sides", min: 2, max: 2, options: [{ name: "A" }, { name: "B" }, { name: "C" }] }]);
    expect(fails(() => resolveOptions([two!], ["A"], "p")).userMessage).toBe("p: choose at least 2 of Sides");
    expect(fails(() => resolveOptions([two!], ["A", "B", "C"], "p")).userMessage).toBe("p: choose at most 2 of Sides");
    expect(resolveOptions([two!], ["C", "A"], "p").map((o) => o.name)).toEqual(["A", "C"]);
  });

  it("prices a dish without a price by its options, and leaves it unpriced when they cost nothing", () => {
    expect(unitPrice(null, [])).toBeNull();
    expect(unitPrice(null, [{ group: "Spice", name: "Mild", priceCents: 0 }])).toBeNull();
    expect(unitPrice(null, [{ group: "Extras", name: "Egg", priceCents: 150 }])).toBe(150);
    expect(unitPrice(0, [])).toBe(0);
  });

  it("labels a line as tickets print it", () => {
    expect(lineLabel({ name: "Beef noodles", options: [{ name: "Large" }, { name: "Extra spicy" }] })).toBe("Beef noodles · Large · Extra spicy");
    expect(lineLabel({ name: "Tea" })).toBe("Tea");
  });
});

describe("an order's lines with options, notes and sold-out dishes", () => {
  const CAT = "00000000-0000-4000-8000-000000000001";
  const beef: OrderableItem = {
    id: "00000000-0000-4000-8000-0000000000b1",
    categoryId: CAT,
    name: "Beef noodles",
    priceCents: 1250,
    available: true,
    position: 0,
    stationId: null,
    optionGroups: [size],
    categoryStationId: null,
    categoryOptionGroups: [spice, extras],
  };
  const buns: OrderableItem = {
    ...beef,
    id: "00000000-0000-4000-8000-0000000000b2",
    name: "Pork buns",
    priceCents: 600,
    available: false,
    optionGroups: [],
    categoryOptionGroups: [],
  };
  const lines = (items: unknown[]) => parseOrThrow(newOrderSchema, { items }, "order").items;

  it("stores the chosen options with a unit price that includes them, and each line's note", () => {
    const stored = resolveOrderLines(
      lines([
        { menuItemId: beef.id, qty: 2, options: ["Large", "Extra spicy"], note: "no coriander" },
        { name: "Extra egg", qty: 1, note: "soft" },
      ]),
      [beef],
    );
    expect(stored).toEqual([
      {
        name: "Beef noodles",
        qty: 2,
        menuItemId: beef.id,
        priceCents: 1450,
        options: [
          { group: "Spice", name: "Extra spicy", priceCents: 0 },
          { group: "Size", name: "Large", priceCents: 200 },
        ],
        note: "no coriander",
      },
      { name: "Extra egg", qty: 1, note: "soft" },
    ]);
  });

  it("names the line whose options are wrong", () => {
    const e = fails(() =>
      resolveOrderLines(
        lines([
          { name: "Tea", qty: 1 },
          { menuItemId: beef.id, qty: 1, options: ["Large"] },
        ]),
        [beef],
      ),
    );
    expect(e.details).toEqual({ fields: [{ path: "items.1.options", message: "choose a Spice" }] });
  });

  it("refuses options on a free-text line, and a line note past 200 characters", () => {
    expect(fails(() => lines([{ name: "Tea", qty: 1, options: ["Large"] }])).details).toEqual({
      fields: [{ path: "items.0.options", message: "Options need a menuItemId (a free-text line has none)" }],
    });
    expect(fails(() => lines([{ name: "Tea", qty: 1, note: "x".repeat(201) }])).userMessage).toBe(
      "items.0.note: A line's note is too long (200 characters at most)",
    );
  });

  it("refuses a sold-out dish unless the channel is accepted, then flags its line", () => {
    expect(fails(() => resolveOrderLines(lines([{ menuItemId: buns.id, qty: 1 }]), [buns])).code).toBe("CONFLICT");
    expect(resolveOrderLines(lines([{ menuItemId: buns.id, qty: 1 }]), [buns], true)).toEqual([
      { name: "Pork buns", qty: 1, menuItemId: buns.id, priceCents: 600, soldOut: true },
    ]);
    // Accepting sold-out dishes does not accept wrong options.
    expect(fails(() => resolveOrderLines(lines([{ menuItemId: buns.id, qty: 1, options: ["Large"] }]), [buns], true)).reason).toBe("unknownOption");
  });
});

describe("an order's service", () => {
  it("is as sent, else the restaurant's default while it asks, else not stated", () => {
    expect(serviceOf("takeAway", { askService: "off", defaultService: "eatIn" })).toBe("takeAway");
    expect(serviceOf(undefined, { askService: "ask", defaultService: "takeAway" })).toBe("takeAway");
    expect(serviceOf(undefined, { askService: "remember", defaultService: "eatIn" })).toBe("eatIn");
    expect(serviceOf(undefined, { askService: "off", defaultService: "eatIn" })).toBeNull();
  });

  it("takes only eatIn or takeAway", () => {
    expect(fails(() => parseOrThrow(newOrderSchema, { service: "delivery" }, "order")).userMessage).toBe('service: service must be "eatIn" or "takeAway"');
  });
});
