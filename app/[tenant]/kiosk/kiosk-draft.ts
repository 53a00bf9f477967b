/**
 * The order a cashier is typing, kept on the device (localStorage) so that a reload, a
 * server restart or a new build loses none of it (decision 0048). One draft per restaurant
 * and signed-in device (`scope`: a hash of the order's idempotency scope), with the order's
 * idempotency key: a retry after a reload replays the order a lost answer may have taken.
 * Storage is passed in, so the store runs in unit tests without a browser.
 */
import { KIOSK_INTENTS, type KioskIntent } from "@/lib/core/kiosk-order";
import { OPTION_LIMITS } from "@/lib/core/menu-options";
import { asService, ORDER_LIMITS, type Service } from "@/lib/core/orders";
import type { Picked, PickedOption } from "./kiosk-lines";

export interface DraftRow {
  name: string;
  qty: string;
  note: string;
}

export type DraftPick = Picked;

export interface KioskDraft {
  /** The order's idempotency key: kept until the order is taken or cleared. */
  key: string;
  rows: DraftRow[];
  picked: DraftPick[];
  note: string;
  /** Eat in or take away as chosen for this order; null: not chosen (or not asked). */
  service: Service | null;
  /** A send whose answer has not come (which button): the key must outlive the page, as the order may be taken. */
  sending: KioskIntent | null;
  /** The page reloaded to a new build to send it: the new page sends it again, once, with the same key. */
  resend: boolean;
  /** When it was last written (ms since epoch). */
  savedAt: number;
}

/** A draft older than a service day is yesterday's order: it is dropped rather than restored. */
export const DRAFT_MAX_AGE_MS = 12 * 3600_000;

export const draftKey = (slug: string, scope: string): string => `nextup.kiosk.draft.${slug}.${scope}`;

type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const isString = (x: unknown, max: number): x is string => typeof x === "string" && x.length <= max;
// A draft of a release before options and line notes has neither: read as none.
const noteOf = (x: unknown): string => (isString(x, ORDER_LIMITS.lineNote) ? x : "");
const optionsOf = (x: unknown): PickedOption[] =>
  (Array.isArray(x) ? (x as unknown[]) : [])
    .filter((o): o is PickedOption => {
      const v = o as Partial<PickedOption> | null;
      return !!v && isString(v.id, 64) && isString(v.name, OPTION_LIMITS.name * 2);
    })
    .slice(0, OPTION_LIMITS.chosen)
    .map((o) => ({ id: o.id, name: o.name }));

/** A stored draft as this release reads it, or null when it is none (another shape, too old, too large). */
export function parseDraft(raw: string | null, now: number): KioskDraft | null {
  if (raw === null) return null;
  let d: Partial<Record<keyof KioskDraft, unknown>>;
  try {
    d = JSON.parse(raw) as typeof d;
  } catch {
    return null;
  }
  if (typeof d !== "object" || d === null || !isString(d.key, 200) || !d.key || typeof d.savedAt !== "number") return null;
  if (now - d.savedAt > DRAFT_MAX_AGE_MS || !Array.isArray(d.rows) || !Array.isArray(d.picked) || !isString(d.note, ORDER_LIMITS.note)) return null;
  const rows = d.rows
    .filter((r: Partial<DraftRow> | null): r is DraftRow => !!r && isString(r.name, ORDER_LIMITS.itemName * 2) && isString(r.qty, 10))
    .slice(0, ORDER_LIMITS.items + 1)
    .map((r) => ({ name: r.name, qty: r.qty, note: noteOf(r.note) }));
  const picked = d.picked
    .filter(
      (p: Partial<DraftPick> | null): p is DraftPick =>
        !!p && isString(p.id, 64) && isString(p.name, ORDER_LIMITS.itemName * 2) && Number.isInteger(p.qty) && p.qty! >= 1 && p.qty! <= ORDER_LIMITS.qty,
    )
    .slice(0, ORDER_LIMITS.items)
    .map((p) => ({ id: p.id, name: p.name, qty: p.qty, options: optionsOf(p.options), note: noteOf(p.note) }));
  const sending = KIOSK_INTENTS.find((i) => i === d.sending) ?? null;
  return {
    key: d.key,
    rows,
    picked,
    note: d.note,
    service: asService(d.service),
    sending,
    resend: sending !== null && d.resend === true,
    savedAt: d.savedAt,
  };
}

/** Nothing typed: no line named, nothing tapped, no note (a service chosen alone is no order). */
export const isBlank = (d: Pick<KioskDraft, "rows" | "picked" | "note">): boolean =>
  d.picked.length === 0 && d.note.trim() === "" && d.rows.every((r) => r.name.trim() === "");

export interface DraftStore {
  read(): KioskDraft | null;
  /** Keeps `draft`; a blank one with no send under way is forgotten instead (its key was never used). */
  write(draft: Omit<KioskDraft, "savedAt">): void;
  clear(): void;
}

export function draftStore(storage: DraftStorage | null, slug: string, scope: string, now: () => number = Date.now): DraftStore {
  const key = draftKey(slug, scope);
  // Private mode or a full storage: the draft lives as long as the page, as before.
  const attempt = <T>(f: () => T, fallback: T): T => {
    try {
      return storage ? f() : fallback;
    } catch {
      return fallback;
    }
  };
  const clear = () => attempt(() => storage!.removeItem(key), undefined);
  return {
    read: () => attempt(() => parseDraft(storage!.getItem(key), now()), null),
    write(draft) {
      if (isBlank(draft) && draft.sending === null) return clear();
      attempt(() => storage!.setItem(key, JSON.stringify({ ...draft, savedAt: now() })), undefined);
    },
    clear,
  };
}
