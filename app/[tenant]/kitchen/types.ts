import type { OrderItem, OrderStatus, Service } from "@/lib/core/orders";
import type { ReadyWhen } from "@/lib/core/stations";
import type { FloorSettings } from "@/lib/core/tenants";

/** One station's part of an order, as the screens show it (issue #40). */
export interface KitchenPart {
  id: string;
  name: string;
  /** ISO time it was done; null: the station still works on it. */
  doneAt: string | null;
  /** "12:03" in the restaurant's time zone; null while not done. */
  doneTime: string | null;
}

/** A station of the restaurant, for the switcher and a station's own screen. */
export interface KitchenStation {
  id: string;
  name: string;
  isDefault: boolean;
}

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
  /** Eat in or take away; null: not stated (an order of a release before issue #41, or the restaurant does not ask). */
  service: Service | null;
  /** Its business day "YYYY-MM-DD": one before `KitchenData.businessDay` is still on the floor from an earlier day. */
  businessDay?: string;
  createdAt: string;
  readyAt: string | null;
  /** "14:05" in the restaurant's time zone. */
  orderedAt: string;
  /** Its parts, one per station with lines of it; absent or [] without stations. */
  stations?: KitchenPart[];
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
  /** The restaurant's stations in screen order; absent or []: one kitchen, no parts shown. */
  stations?: KitchenStation[];
  /** "parts" or "expo": whether an order with every part done waits for a bump (expo). */
  readyWhen?: ReadyWhen;
  /** The station this screen is for; null or absent: the main kitchen. */
  station?: KitchenStation | null;
  /** A station's screen whose station does not exist (any more): its id, to say so. */
  missingStation?: string;
  /** On a station's screen: the open orders whose share it has done, latest first, for Undo. */
  doneHere?: StationDoneOrder[];
}

/** An open order whose share a station did: its lines there, and when. */
export interface StationDoneOrder extends KitchenOrder {
  partDoneAt: string;
  partDoneTime: string;
}
