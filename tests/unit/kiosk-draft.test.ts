import { describe, expect, it } from "vitest";
import { DRAFT_MAX_AGE_MS, draftKey, draftStore, isBlank, parseDraft, type KioskDraft } from "@/app/[tenant]/kiosk/kiosk-draft";

/** localStorage's three calls over a Map; `full` makes setItem throw as a full storage does. */
function memoryStorage(full = false) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (full) throw new Error("QuotaExceededError");
      items.set(k, v);
    },
    removeItem: (k: string) => void items.delete(k),
  };
}

const typed: Omit<KioskDraft, "savedAt"> = {
  key: "k-1",
  rows: [
    { name: "Beef noodles", qty: "2", note: "no ice" },
    { name: "", qty: "1", note: "" },
  ],
  picked: [
    { id: "m1", name: "Wonton soup", qty: 3, options: [], note: "" },
    {
      id: "m2",
      name: "Beef noodles",
      qty: 1,
      options: [
        { id: "o-large", name: "Large" },
        { id: "o-hot", name: "Extra spicy" },
      ],
      note: "no coriander",
    },
  ],
  note: "table 4",
  service: "takeAway",
  sending: null,
  resend: false,
};

describe("the kiosk's draft on the device", () => {
  it("keeps what the cashier typed, key included, and reads it back after a reload", () => {
    const storage = memoryStorage();
    draftStore(storage, "alpha", "s1", () => 1_000).write(typed);
    expect(draftStore(storage, "alpha", "s1", () => 2_000).read()).toEqual({ ...typed, savedAt: 1_000 });
  });

  it("is one per restaurant and signed-in device", () => {
    const storage = memoryStorage();
    draftStore(storage, "alpha", "s1").write(typed);
    expect(draftStore(storage, "bravo", "s1").read()).toBeNull();
    expect(draftStore(storage, "alpha", "s2").read()).toBeNull();
    expect([...storage.items.keys()]).toEqual([draftKey("alpha", "s1")]);
  });

  it("is forgotten when cleared, and when the form is blank with nothing being sent", () => {
    const storage = memoryStorage();
    const store = draftStore(storage, "alpha", "s1");
    store.write(typed);
    store.clear();
    expect(store.read()).toBeNull();
    store.write(typed);
    store.write({ ...typed, rows: [{ name: " ", qty: "1", note: "" }], picked: [], note: "" });
    expect(storage.items.size).toBe(0);
  });

  it("keeps a blank form's key while a send is under way (Number only): a lost answer may have taken it", () => {
    const storage = memoryStorage();
    const store = draftStore(storage, "alpha", "s1", () => 5);
    const blank = { ...typed, rows: [], picked: [], note: "", sending: "numberOnly" as const, resend: true };
    store.write(blank);
    expect(store.read()).toEqual({ ...blank, savedAt: 5 });
  });

  it("drops a draft older than a service day, or one this release cannot read", () => {
    const storage = memoryStorage();
    draftStore(storage, "alpha", "s1", () => 0).write(typed);
    expect(draftStore(storage, "alpha", "s1", () => DRAFT_MAX_AGE_MS).read()).not.toBeNull();
    expect(draftStore(storage, "alpha", "s1", () => DRAFT_MAX_AGE_MS + 1).read()).toBeNull();
    for (const raw of ["{", "null", "[]", '{"key":"","rows":[],"picked":[],"note":"","savedAt":1}', '{"key":"k","rows":{},"picked":[],"note":"","savedAt":1}'])
      expect(parseDraft(raw, 1), raw).toBeNull();
  });

  it("reads only well-formed lines, and a resend only with the button it was for; a previous release's draft has no options, notes or service", () => {
    const raw = JSON.stringify({
      key: "k",
      rows: [{ name: "Tea", qty: "1" }, { name: 5 }, null],
      picked: [
        { id: "m1", name: "Soup", qty: 2 },
        { id: "m2", name: "Bad", qty: 0 },
      ],
      note: "",
      sending: "refund",
      resend: true,
      savedAt: 1,
    });
    expect(parseDraft(raw, 1)).toEqual({
      key: "k",
      rows: [{ name: "Tea", qty: "1", note: "" }],
      picked: [{ id: "m1", name: "Soup", qty: 2, options: [], note: "" }],
      note: "",
      service: null,
      sending: null,
      resend: false,
      savedAt: 1,
    });
  });

  it("never throws where the device keeps nothing (private mode, a full storage)", () => {
    const full = draftStore(memoryStorage(true), "alpha", "s1");
    expect(() => full.write(typed)).not.toThrow();
    expect(full.read()).toBeNull();
    const none = draftStore(null, "alpha", "s1");
    expect(() => none.write(typed)).not.toThrow();
    expect(none.read()).toBeNull();
  });

  it("drops malformed options, an overlong line note and an unknown service", () => {
    const raw = JSON.stringify({
      key: "k",
      rows: [{ name: "Tea", qty: "1", note: "x".repeat(201) }],
      picked: [{ id: "m1", name: "Soup", qty: 1, options: [{ id: "o1", name: "Large" }, { id: 7 }, "Hot"], note: "mild" }],
      note: "",
      service: "delivery",
      sending: null,
      savedAt: 1,
    });
    const draft = parseDraft(raw, 1)!;
    expect(draft.rows).toEqual([{ name: "Tea", qty: "1", note: "" }]);
    expect(draft.picked).toEqual([{ id: "m1", name: "Soup", qty: 1, options: [{ id: "o1", name: "Large" }], note: "mild" }]);
    expect(draft.service).toBeNull();
  });

  it("calls a form with only empty lines blank", () => {
    expect(isBlank({ rows: [{ name: "  ", qty: "2", note: "" }], picked: [], note: " " })).toBe(true);
    expect(isBlank({ rows: [], picked: [], note: "x" })).toBe(false);
  });
});
