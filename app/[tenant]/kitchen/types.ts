import type { OrderItem, OrderStatus } from "@/lib/core/orders";
import type { FloorSettings } from "@/lib/core/tenants";

/** An open order as the kitchen screen receives it from the server (plain JSON). */
export interface KitchenOrder {
  id: string;
  number: number;
  /** What the screen shows and a cook types: "K12", or "12" without a prefix (decision 0027). */
  display: string;
  shift: number;
  status: OrderStatus;
  items: OrderItem[];
  note: string | null;
  /** Where it came from: "kiosk", "api", "pos", "delivery"… (a free string in the database). */
  channel: string;
  /** Its business day "YYYY-MM-DD": one before `KitchenData.businessDay` is still on the floor from an earlier day. */
  businessDay?: string;
  createdAt: string;
  readyAt: string | null;
  /** "14:05" in the restaurant's time zone. */
  orderedAt: string;
}

/** A collected order the kitchen can still recall. */
export interface CollectedOrder {
  id: string;
  number: number;
  display: string;
  shift: number;
  /** "14:05" in the restaurant's time zone. */
  collectedAt: string;
  /** Who marked it collected (a person's name, a shared code's role, an API key's label); null: not known. */
  collectedBy: string | null;
}

export type KitchenFloor = Pick<FloorSettings, "readyClearMinutes" | "ageWarnMinutes" | "ageLateMinutes">;

/** Everything the kitchen screen shows. */
export interface KitchenData {
  /** Today's business day "YYYY-MM-DD". */
  businessDay: string;
  currentShift: number;
  floor: KitchenFloor;
  open: KitchenOrder[];
  collected: CollectedOrder[];
  /** The letters the restaurant's series use (none: numbers only, the typed field asks for digits). */
  prefixes: string[];
}
