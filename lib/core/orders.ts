/**
 * Orders: the statuses an order moves through, which moves are legal, and the shape of
 * what a cashier or an integration may submit. Framework-free.
 */
import { z } from "zod";
import { lineText, multilineText } from "./text";
import { AppError } from "./errors";
import type { BusinessDay } from "./business-day";
import { displayNumber } from "./display-number";
import type { OrderPart } from "./stations";
import { chosenOptionsSchema, type ChosenOption } from "./menu-options";

export const ORDER_STATUSES = ["PLACED", "READY", "COLLECTED", "CANCELLED"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Legal moves. READY → PLACED and COLLECTED → READY undo a mistaken tap in the kitchen;
 * CANCELLED is final. Moving to the status an order already has is a no-op (a retried
 * request or a double tap), not an error.
 */
const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  PLACED: ["READY", "CANCELLED"],
  READY: ["COLLECTED", "PLACED", "CANCELLED"],
  COLLECTED: ["READY"],
  CANCELLED: [],
};

/** The kitchen's one step forward: PLACED → READY → COLLECTED; null when there is none. */
export function nextStep(status: OrderStatus): OrderStatus | null {
  return status === "PLACED" ? "READY" : status === "READY" ? "COLLECTED" : null;
}

/** The kitchen's Undo: one step back (READY → PLACED, COLLECTED → READY); null when there is none. */
export function previousStep(status: OrderStatus): OrderStatus | null {
  return status === "READY" ? "PLACED" : status === "COLLECTED" ? "READY" : null;
}

/** Open: the customer is still waiting (being prepared or ready to collect). */
export function isOpen(status: OrderStatus): boolean {
  return status === "PLACED" || status === "READY";
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (from !== to && !canTransition(from, to)) {
    throw new AppError("CONFLICT", {
      message: `Order cannot move from ${from} to ${to}`,
      userMessage: `This order is ${from.toLowerCase()} and cannot be marked ${to.toLowerCase()}.`,
      reason: "illegalMove",
      details: { from, to },
    });
  }
}

/** Limits of an order, shared by the validation here and the forms' own messages. */
export const ORDER_LIMITS = { itemName: 120, qty: 999, items: 100, note: 500, lineNote: 200 } as const;

export const CHANNELS = ["kiosk", "counter", "api", "pos", "delivery", "phone", "web"] as const;
export type Channel = (typeof CHANNELS)[number];

/** Eaten here or packed to go (issue #41). */
export const SERVICES = ["eatIn", "takeAway"] as const;
export type Service = (typeof SERVICES)[number];
export const serviceSchema = z.enum(SERVICES, { error: 'service must be "eatIn" or "takeAway"' });

/** Whether the kiosk asks for the service: not at all, for every order, or keeping the last choice. */
export const ASK_SERVICE = ["off", "ask", "remember"] as const;
export type AskService = (typeof ASK_SERVICE)[number];

export const asService = (v: unknown): Service | null => (SERVICES.includes(v as Service) ? (v as Service) : null);
export const asAskService = (v: unknown): AskService => (ASK_SERVICE.includes(v as AskService) ? (v as AskService) : "off");
export const asChannels = (v: unknown): Channel[] => (Array.isArray(v) ? CHANNELS.filter((c) => v.includes(c)) : []);

/** The service an order stores: as sent, else the restaurant's default while it asks at all, else none. */
export const serviceOf = (sent: Service | undefined, floor: { askService: AskService; defaultService: Service }): Service | null =>
  sent ?? (floor.askService === "off" ? null : floor.defaultService);

/** An order line as submitted: a free-text name, or a menu item by id with its chosen options. */
export type OrderLineInput =
  | { name: string; qty: number; note?: string; menuItemId?: undefined; options?: undefined }
  | { menuItemId: string; qty: number; options?: readonly string[]; note?: string; name?: undefined };

/**
 * One line: a free-text `name`, or a `menuItemId` of the restaurant's menu (the server
 * copies the item's name and price when the order is taken). Exactly one of the two.
 * `options` name the dish's options (menu lines only); `note` is the cook's, for this line.
 */
export const orderItemSchema = z
  .strictObject({
    name: lineText("Item name").min(1, "Item name is required").max(ORDER_LIMITS.itemName, "Item name is too long").optional(),
    menuItemId: z.uuid({ error: "menuItemId must be a menu item id (UUID)" }).optional(),
    qty: z.number().int("Quantity must be a whole number").min(1, "Quantity must be at least 1").max(ORDER_LIMITS.qty),
    options: chosenOptionsSchema.optional(),
    note: lineText("Line note").max(ORDER_LIMITS.lineNote, `A line's note is too long (${ORDER_LIMITS.lineNote} characters at most)`).optional(),
  })
  .superRefine((item, ctx) => {
    if (item.name === undefined && item.menuItemId === undefined)
      ctx.addIssue({ code: "custom", path: ["name"], message: "Item name is required (or a menuItemId)" });
    if (item.name !== undefined && item.menuItemId !== undefined)
      ctx.addIssue({ code: "custom", path: ["menuItemId"], message: "Send a name or a menuItemId, not both" });
    if (item.options !== undefined && item.options.length > 0 && item.menuItemId === undefined)
      ctx.addIssue({ code: "custom", path: ["options"], message: "Options need a menuItemId (a free-text line has none)" });
  })
  .transform((item): OrderLineInput => {
    const note = item.note ? { note: item.note } : {};
    return item.menuItemId !== undefined
      ? { menuItemId: item.menuItemId, qty: item.qty, options: item.options ?? [], ...note }
      : { name: item.name!, qty: item.qty, ...note };
  });

export const newOrderSchema = z.strictObject({
  items: z.array(orderItemSchema).max(ORDER_LIMITS.items, `At most ${ORDER_LIMITS.items} items per order`).default([]),
  note: multilineText("Note").max(ORDER_LIMITS.note, `Note is too long (${ORDER_LIMITS.note} characters at most)`).optional(),
  channel: z.enum(CHANNELS).optional(),
  /** A series by name (decision 0027); otherwise the channel's series, else the default. */
  series: lineText("Series").min(1, "Series must not be empty").max(40, "Series must be at most 40 characters").optional(),
  /** false: no ticket is printed on the restaurant's printer (decision 0029). */
  print: z.boolean({ error: "print must be true or false" }).optional(),
  /** Eat in or take away; absent: the restaurant's default, when it asks at all (issue #41). */
  service: serviceSchema.optional(),
});

export type NewOrderInput = z.input<typeof newOrderSchema>;
export type NewOrder = z.output<typeof newOrderSchema>;

export const statusChangeSchema = z.strictObject({ status: z.enum(ORDER_STATUSES) });

/**
 * Idempotency keys: printable ASCII (spaces too, inside), 1–200 characters, as docs/api.md
 * says. Not at either end: HTTP drops spaces around a header's value, so none can be meant.
 */
export const idempotencyKeySchema = z
  .string()
  .min(1, "Idempotency-Key must not be empty")
  .max(200, "Idempotency-Key is too long (200 characters at most)")
  .regex(/^[\x20-\x7e]*$/, "Idempotency-Key must be printable ASCII (letters, digits, punctuation, spaces)")
  .regex(/^\S(.*\S)?$/s, "Idempotency-Key must not start or end with a space");

export interface OrderItem {
  /** Copied when the order is taken: renaming a menu item later changes no order. */
  name: string;
  qty: number;
  /** Set when the line came from the menu (for reports). */
  menuItemId?: string;
  /** One unit's price when ordered, its options' included; absent when the dish had none. */
  priceCents?: number;
  /** The station that makes it (issue #40); absent while the restaurant has no stations. */
  stationId?: string;
  /** The dish's options as chosen, in menu order; their prices are in priceCents (issue #41). */
  options?: ChosenOption[];
  /** The cashier's note for this line ("no coriander"). */
  note?: string;
  /** Taken although the dish was sold out (a channel the restaurant accepts them from). */
  soldOut?: true;
}

export interface Order {
  id: string;
  tenantId: string;
  businessDay: BusinessDay;
  shift: number;
  number: number;
  status: OrderStatus;
  items: OrderItem[];
  note: string | null;
  channel: string;
  idempotencyKey: string | null;
  /** Whose idempotency key: an API key's or a kiosk device's (null: stored before keys were scoped). */
  idempotencyScope: string | null;
  requestHash: string | null;
  createdAt: Date;
  readyAt: Date | null;
  collectedAt: Date | null;
  cancelledAt: Date | null;
  /** Taken off the floor by a manager at a new shift without being collected. */
  clearedAt: Date | null;
  /** The letters shown before the number ("" for none), as issued (decision 0027). */
  prefix: string;
  /** The series it was numbered in (null: the default series) and that series' name then. */
  seriesId: string | null;
  seriesName: string | null;
  /** Its ticket in (day, shift, series); null in the default series, where the number is the ticket. */
  ticket: number | null;
  /**
   * Who took it: a person's name, a shared code's role label ("Cashier"), an API key's label.
   * Null when no one was named (a node of the release before people, a tool).
   */
  placedBy: string | null;
  /** Its parts, one per station with lines of it (issue #40); [] when the restaurant has no stations. */
  stations: OrderPart[];
  /** Eat in or take away; null: not stated (the restaurant does not ask, or a release before #41 took it). */
  service: Service | null;
}

/**
 * One entry of an order's history: the status it moved to, when, and who moved it (a
 * person's name, a shared code's role label, an API key's label; null: no one named). An
 * Undo of Ready is an entry with status PLACED.
 */
export interface OrderMove {
  status: OrderStatus;
  at: Date;
  by: string | null;
}

/**
 * The whole history, oldest first: being taken (createdAt, placedBy), then every stored move.
 * Moves made by a node of the release before people were not stored: the history lacks them.
 */
export function orderHistory(order: Pick<Order, "createdAt" | "placedBy">, moves: readonly OrderMove[]): OrderMove[] {
  return [{ status: "PLACED", at: order.createdAt, by: order.placedBy }, ...moves];
}

/** Who made the latest move of `moves` to `status` (null: none stored, or no one named). */
export function lastMoveBy(moves: readonly OrderMove[], status: OrderStatus): string | null {
  return moves.findLast((m) => m.status === status)?.by ?? null;
}

/**
 * Who marked the order ready: the latest move to READY from preparing. An Undo of "collected"
 * also moves it to READY, but whoever undid a handover did not cook it (null: none stored).
 */
export function readiedBy(moves: readonly Pick<OrderMove, "status" | "by">[]): string | null {
  let before: OrderStatus = "PLACED";
  let by: string | null = null;
  for (const m of moves) {
    if (m.status === "READY" && before === "PLACED") by = m.by;
    before = m.status;
  }
  return by;
}

/**
 * What the public board and its live events may show of an order. No id: the id opens
 * the customer's page (with what was ordered), so only the ticket carries it. `key`
 * names the order uniquely within its tenant.
 */
export interface BoardOrder {
  key: string;
  number: number;
  /** "" or the series' letters; `display` is what a screen shows and the board calls ("K12"). */
  prefix: string;
  display: string;
  status: OrderStatus;
  businessDay: BusinessDay;
  shift: number;
  createdAt: string;
  readyAt: string | null;
  /** Off the floor (cleared at a new shift): boards drop it like a collected order. */
  cleared: boolean;
  /** Eat in or take away (boards mark take-away numbers); null: not stated. */
  service: Service | null;
}

/** Unique among a tenant's open orders: a series' number comes round within a shift, its ticket does not. */
export const boardKey = (o: Pick<Order, "businessDay" | "shift" | "number"> & Partial<Pick<Order, "prefix" | "seriesId" | "ticket">>): string =>
  o.seriesId == null || o.ticket == null ? `${o.businessDay}/${o.shift}/${o.number}` : `${o.businessDay}/${o.shift}/${o.prefix ?? ""}${o.number}/${o.ticket}`;

export function toBoardOrder(o: Order): BoardOrder {
  return {
    key: boardKey(o),
    number: o.number,
    prefix: o.prefix,
    display: displayNumber(o.prefix, o.number),
    status: o.status,
    businessDay: o.businessDay,
    shift: o.shift,
    createdAt: o.createdAt.toISOString(),
    readyAt: o.readyAt?.toISOString() ?? null,
    cleared: o.clearedAt !== null,
    service: o.service,
  };
}

/**
 * Turns zod issues into one AppError naming every bad field. `field` names an input that is
 * not the body (a header, a query parameter): paths start with it instead of "(body)".
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, what: string, field?: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((i) => ({
    path: [...(field === undefined ? [] : [field]), ...i.path].join(".") || "(body)",
    message: i.message,
  }));
  const first = fields[0];
  throw new AppError("BAD_INPUT", {
    message: `Invalid ${what}: ${fields.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
    userMessage: first ? `${first.path === "(body)" ? "" : `${first.path}: `}${first.message}` : `Invalid ${what}`,
    details: { fields },
  });
}
