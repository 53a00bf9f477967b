import { describe, expect, it } from "vitest";
import { kioskRefusal } from "@/lib/core/kiosk-order";

describe("the kiosk's two buttons", () => {
  it("Take order needs an item or a note: an empty form (or a blank note) is refused, no number spent", () => {
    expect(kioskRefusal("order", { items: 0, note: "" })).toBe("emptyOrder");
    expect(kioskRefusal("order", { items: 0, note: "   " })).toBe("emptyOrder");
    expect(kioskRefusal("order", { items: 0, note: undefined })).toBe("emptyOrder");
    expect(kioskRefusal("order", { items: 1, note: "" })).toBeNull();
    expect(kioskRefusal("order", { items: 0, note: "two coffees" })).toBeNull();
  });

  it("Number only issues a bare number, and refuses a form with items or a note (they would be lost unseen)", () => {
    expect(kioskRefusal("numberOnly", { items: 0, note: null })).toBeNull();
    expect(kioskRefusal("numberOnly", { items: 0, note: " " })).toBeNull();
    expect(kioskRefusal("numberOnly", { items: 2, note: "" })).toBe("numberOnlyHasItems");
    expect(kioskRefusal("numberOnly", { items: 0, note: "no onions" })).toBe("numberOnlyHasItems");
  });
});
