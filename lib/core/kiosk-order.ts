/**
 * What the kiosk's two buttons may issue: "Take order" needs something to make (an item or
 * a note), so a mis-tap on an empty form spends no number; "Number only" issues a bare
 * number and refuses a form that has items (they would be dropped unseen). The REST API is
 * not bound by this: `{}` stays a bare number there.
 */
export const KIOSK_INTENTS = ["order", "numberOnly"] as const;
export type KioskIntent = (typeof KIOSK_INTENTS)[number];

export type KioskRefusal = "emptyOrder" | "numberOnlyHasItems";

/** Null when the intent fits the form; else why it is refused (the kiosk says so, nothing is issued). */
export function kioskRefusal(intent: KioskIntent, order: { items: number; note: string | null | undefined }): KioskRefusal | null {
  const hasContent = order.items > 0 || Boolean(order.note?.trim());
  if (intent === "order" && !hasContent) return "emptyOrder";
  if (intent === "numberOnly" && hasContent) return "numberOnlyHasItems";
  return null;
}
