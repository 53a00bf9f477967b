import { describe, expect, it } from "vitest";
import {
  addLine,
  addOne,
  kioskMenu,
  lineKey,
  lineState,
  missingGroups,
  replaceLine,
  stepLine,
  type KioskDish,
  type Picked,
} from "@/app/[tenant]/kiosk/kiosk-lines";
import type { MenuSection } from "@/lib/core/menu";
import type { OptionGroup } from "@/lib/core/menu-options";

const size: OptionGroup = {
  id: "g-size",
  name: "Size",
  required: true,
  min: 1,
  max: 1,
  options: [
    { id: "o-small", name: "Small", priceCents: 0 },
    { id: "o-large", name: "Large", priceCents: 200 },
  ],
};
const spice: OptionGroup = {
  id: "g-spice",
  name: "Spice",
  required: false,
  min: 0,
  max: 1,
  options: [
    { id: "o-mild", name: "Mild", priceCents: 0 },
    { id: "o-hot", name: "Extra spicy", priceCents: 50 },
  ],
};
const extras: OptionGroup = {
  id: "g-extras",
  name: "Extras",
  required: false,
  min: 0,
  max: 2,
  options: [
    { id: "o-egg", name: "Egg", priceCents: 100 },
    { id: "o-beef", name: "More beef", priceCents: 300 },
    { id: "o-tofu", name: "Tofu", priceCents: 80 },
  ],
};

const beef: KioskDish = {
  id: "d-beef",
  categoryId: "c1",
  name: "Beef noodles",
  priceCents: 1250,
  available: true,
  position: 0,
  stationId: null,
  optionGroups: [spice],
  groups: [size, spice],
};
const line = (over: Partial<Picked> = {}): Picked => ({ id: beef.id, name: beef.name, qty: 1, options: [], note: "", ...over });
const large = { id: "o-large", name: "Large" };
const small = { id: "o-small", name: "Small" };
const hot = { id: "o-hot", name: "Extra spicy" };

describe("the kiosk's menu lines", () => {
  it("offers each dish its category's groups, then its own (a same-named own group replaces the shared one)", () => {
    const ownSpice = { ...spice, id: "g-own-spice" };
    const section: MenuSection = {
      id: "c1",
      name: "Noodles",
      position: 0,
      stationId: null,
      optionGroups: [size, spice],
      items: [{ ...beef, optionGroups: [ownSpice] }],
    };
    const empty: MenuSection = { ...section, id: "c2", items: [] };
    const [only, ...rest] = kioskMenu([section, empty]);
    expect(rest).toEqual([]);
    expect(only!.items[0]!.groups.map((g) => g.id)).toEqual(["g-size", "g-own-spice"]);
  });

  it("keeps the same dish with other options, or another note, on a line of its own", () => {
    let picked = addLine([], line({ options: [large, hot] }));
    picked = addLine(picked, line({ options: [hot, large], qty: 2 }));
    expect(picked).toHaveLength(1);
    expect(picked[0]!.qty).toBe(3);
    picked = addLine(picked, line({ options: [small] }));
    picked = addLine(picked, line({ options: [large, hot], note: " no coriander " }));
    expect(picked.map((p) => [p.options.map((o) => o.name), p.note, p.qty])).toEqual([
      [["Large", "Extra spicy"], "", 3],
      [["Small"], "", 1],
      [["Large", "Extra spicy"], "no coriander", 1],
    ]);
    expect(new Set(picked.map(lineKey)).size).toBe(3);
  });

  it("adds one more of a dish without options on its line, as a tap does", () => {
    const tea = { id: "d-tea", name: "Tea" };
    expect(addOne(addOne([], tea), tea)).toEqual([{ id: "d-tea", name: "Tea", qty: 2, options: [], note: "" }]);
  });

  it("edits a line in its place, or joins it to a line it now equals", () => {
    const picked = [line({ options: [small] }), line({ options: [large], qty: 2 }), line({ id: "d-tea", name: "Tea" })];
    expect(replaceLine(picked, 0, line({ options: [small], note: "no onion" })).map((p) => p.note)).toEqual(["no onion", "", ""]);
    const joined = replaceLine(picked, 0, line({ options: [large] }));
    expect(joined.map((p) => [p.name, p.qty])).toEqual([
      ["Beef noodles", 3],
      ["Tea", 1],
    ]);
  });

  it("steps a line's quantity, and removes it below one", () => {
    const picked = [line(), line({ id: "d-tea" })];
    expect(stepLine(picked, 1, 1)[1]!.qty).toBe(2);
    expect(stepLine(picked, 0, -1).map((p) => p.id)).toEqual(["d-tea"]);
  });

  it("prices a line with its options, and marks one the menu no longer takes", () => {
    expect(lineState(beef, line({ options: [hot, large] }))).toEqual({
      options: [
        { group: "Size", name: "Large", priceCents: 200 },
        { group: "Spice", name: "Extra spicy", priceCents: 50 },
      ],
      unitCents: 1500,
      problem: null,
    });
    // Size became required after the tap; an option was removed from the menu; the dish sold out.
    expect(lineState(beef, line()).problem).toBe("options");
    expect(lineState(beef, line({ options: [large, { id: "o-gone", name: "Gone" }] })).problem).toBe("options");
    expect(lineState({ ...beef, available: false }, line({ options: [large] })).problem).toBe("soldOut");
    expect(lineState(undefined, line({ options: [large] }))).toEqual({ options: [large], unitCents: null, problem: "soldOut" });
  });

  it("names the groups still short of a choice", () => {
    expect(missingGroups([size, spice, extras], new Set(["o-hot"])).map((g) => g.name)).toEqual(["Size"]);
    expect(missingGroups([size, spice, extras], new Set(["o-small"]))).toEqual([]);
    expect(missingGroups([{ ...extras, min: 2 }], new Set(["o-egg"])).map((g) => g.name)).toEqual(["Extras"]);
  });
});
