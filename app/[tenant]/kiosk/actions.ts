"use server";

import { cookies, headers } from "next/headers";
import { z } from "zod";
import { ORDER_LIMITS, SERVICES, type OrderItem, type Service } from "@/lib/core/orders";
import { AppError } from "@/lib/core/errors";
import { OPTION_LIMITS } from "@/lib/core/menu-options";
import type { OrderLineInput } from "@/lib/core/menu";
import { KIOSK_INTENTS, kioskRefusal } from "@/lib/core/kiosk-order";
import { orderTotal, type OrderTotal } from "@/lib/core/money";
import { displayNumber, seriesOf, servesChannel } from "@/lib/core/series";
import { formList, staffAction, type Translator } from "@/lib/edges/next/validated-action.server";
import { requestOrigin } from "@/app/_lib/tenant.server";
import { formatTime } from "@/app/_lib/format";
import { publicOrigin } from "@/lib/server/http/public-origin.server";
import { DEVICE_COOKIE, screenScope } from "@/lib/auth/device.server";
import { kioskView, type KioskView } from "./kiosk-view.server";
import { trackPath } from "@/lib/core/order-json";
import type { PrinterStatus } from "@/lib/core/printing/printers";
import type { PrintJobState } from "@/lib/core/ports";

export interface IssuedTicket {
  orderId: string;
  number: number;
  /** What the customer holds: "K12" in a series with a prefix, else "12"; absent on a ticket remembered by an older release. */
  display?: string;
  /** False when this was a retry of an order already taken (same idempotency key). */
  created: boolean;
  restaurant: string;
  time: string;
  items: OrderItem[];
  note: string | null;
  /** What the priced lines cost (minor units); null when no line has a price. */
  total: OrderTotal | null;
  /** The restaurant's currency when the order was taken (ISO 4217); null: no symbol. */
  currency: string | null;
  /** Where the customer follows the order; encoded in `qr`. */
  url: string;
  /** A data: URL of the QR code (SVG), drawn by the kiosk from `url` (qr-image.ts). */
  qr: string;
  /** The network printer the server queued this ticket on (no dialog then); null: the browser prints it. */
  printerId?: string | null;
  /** Eat in or take away as the order stores it; null or absent (a ticket remembered by an older release): not stated. */
  service?: Service | null;
}

/** What the action answers: the ticket but its QR code, which the kiosk draws. */
export type PlacedTicket = Omit<IssuedTicket, "qr">;

/** A menu line's options as the kiosk sends them: a JSON array of option ids ("" for none). */
const optionIdsSchema = z.array(z.string().max(64)).max(OPTION_LIMITS.chosen);
function optionIds(raw: string | undefined): string[] | null {
  if (!raw) return [];
  try {
    const parsed = optionIdsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The kiosk's form: item rows (a name, a quantity and a note each; rows without a name are
 * ignored, a blank quantity means 1), menu lines (a dish, its options, a note, how many), a
 * note, eat in or take away, and the idempotency key. Messages name the row.
 */
function orderForm(t: Translator) {
  return z
    .object({
      itemName: formList(z.string().trim()),
      itemQty: formList(z.string().trim()),
      itemNote: formList(z.string().trim()),
      // Lines tapped from the menu: ids only; the server copies their names, and checks and prices their options.
      menuItemId: formList(z.string().trim()),
      menuQty: formList(z.string().trim()),
      menuOptions: formList(z.string().trim()),
      menuNote: formList(z.string().trim()),
      note: z
        .string()
        .trim()
        .max(ORDER_LIMITS.note, t("kiosk.errors.noteTooLong", { max: ORDER_LIMITS.note }))
        .optional(),
      idempotencyKey: z.string().trim().optional(),
      // Which button: "Take order" (needs an item or a note) or "Number only" (a bare number).
      intent: z.enum(KIOSK_INTENTS).default("order"),
      // The number series this device chose (by name); absent: the kiosk channel's.
      series: z.string().trim().max(40).optional(),
      // The network printer this device chose (an id); absent: the one its channel and series use.
      printer: z.string().trim().max(64).optional(),
      // Eat in or take away; absent (or empty): not chosen.
      service: z.union([z.enum(SERVICES), z.literal("")]).optional(),
    })
    .transform(({ itemName, itemQty, itemNote, menuItemId, menuQty, menuOptions, menuNote, note, idempotencyKey, intent, series, printer, service }, ctx) => {
      const items: OrderLineInput[] = [];
      let bad = false;
      const issue = (message: string) => {
        bad = true;
        ctx.addIssue({ code: "custom", message });
      };
      const lineNote = (raw: string | undefined, row: number) => {
        if (raw && raw.length > ORDER_LIMITS.lineNote) issue(t("kiosk.errors.lineNoteTooLong", { row, max: ORDER_LIMITS.lineNote }));
        return raw ? { note: raw } : {};
      };
      menuItemId.forEach((id, i) => {
        const qty = Number(menuQty[i] ?? "1");
        const options = optionIds(menuOptions[i]);
        if (!Number.isInteger(qty) || qty < 1 || qty > ORDER_LIMITS.qty) issue(t("kiosk.errors.badQty", { row: i + 1, name: id, max: ORDER_LIMITS.qty }));
        else if (options === null) issue(t("kiosk.errors.badOptions", { row: i + 1 }));
        else items.push({ menuItemId: id, qty, options, ...lineNote(menuNote[i], i + 1) });
      });
      itemName.forEach((name, i) => {
        if (!name) return;
        const row = i + 1;
        const rawQty = itemQty[i] ?? "";
        const qty = rawQty === "" ? 1 : Number(rawQty);
        if (!Number.isInteger(qty) || qty < 1 || qty > ORDER_LIMITS.qty) issue(t("kiosk.errors.badQty", { row, name, max: ORDER_LIMITS.qty }));
        else if (name.length > ORDER_LIMITS.itemName) issue(t("kiosk.errors.nameTooLong", { row, max: ORDER_LIMITS.itemName }));
        else items.push({ name, qty, ...lineNote(itemNote[i], row) });
      });
      if (items.length > ORDER_LIMITS.items) issue(t("kiosk.errors.tooManyItems", { max: ORDER_LIMITS.items }));
      // The screen checks this first; here too, so that no number is spent by an empty mis-tap.
      const refusal = kioskRefusal(intent, { items: items.length, note });
      if (refusal && !bad) issue(t(`kiosk.errors.${refusal}`));
      return {
        items,
        note: note || undefined,
        idempotencyKey: idempotencyKey || null,
        series: series || undefined,
        printer: printer || null,
        intent,
        service: service || undefined,
      };
    });
}

export const placeOrder = staffAction(
  ["CASHIER"],
  orderForm,
  async ({ items, note, idempotencyKey, series, printer, intent, service }, { app, caller }): Promise<PlacedTicket> => {
    // The screen asks first; here too, so that a restaurant that asks gets no order without the answer (a bare number needs none).
    if (intent === "order" && caller.tenant.floor.askService !== "off" && !service)
      throw new AppError("BAD_INPUT", {
        message: "service: eat in or take away is required",
        userMessage: "Eat in or take away? Choose one, then take the order.",
        reason: "serviceRequired",
        details: { fields: [{ path: "service", message: "Choose eat in or take away" }] },
      });
    // A series deleted since the screen read it: the channel's series numbers the order, and the screen says so once it
    // re-reads the series (settings:changed). The customer at the counter is not refused for the restaurant's change.
    // So does one that no longer serves the kiosk channel (decision 0041).
    const named =
      series && seriesOf(caller.tenant).some((s) => s.name.toLocaleLowerCase("en") === series.toLocaleLowerCase("en") && servesChannel(s, "kiosk"))
        ? series
        : undefined;
    const origin = publicOrigin({ env: app.env, requestOrigin: requestOrigin(await headers()) });
    // Keys are scoped to this device, whatever its sign-in: another till's key never replays here, this till's still does.
    const idempotencyScope = screenScope(caller, (await cookies()).get(DEVICE_COOKIE)?.value);
    const placed = await app.orders.place(
      caller.tenant,
      { items, ...(note ? { note } : {}), ...(named ? { series: named } : {}), ...(service ? { service } : {}) },
      { channel: "kiosk", by: caller.by, idempotencyKey, idempotencyScope, print: { device: printer, origin } },
    );
    const { order, created } = placed;

    return {
      orderId: order.id,
      number: order.number,
      display: displayNumber(order.prefix, order.number),
      created,
      restaurant: caller.tenant.name,
      time: formatTime(order.createdAt, caller.tenant.timeZone),
      items: order.items,
      note: order.note,
      total: orderTotal(order.items),
      currency: caller.tenant.floor.currency,
      url: `${origin}${trackPath(caller.tenant, order.id)}`,
      printerId: placed.printer,
      service: order.service,
    };
  },
);

/** What a kiosk shows of printing: the printers (state, waiting tickets) and the jobs of its recent tickets. */
export interface KioskPrinting {
  /** Channels and series: which printer prints this device's tickets when it chooses none (the menu shows it). */
  printers: { id: string; name: string; status: PrinterStatus; lastError: string | null; queued: number; channels: string[]; series: string[] }[];
  jobs: { id: string; orderId: string | null; display: string | null; printerId: string; state: PrintJobState; lastError: string | null; createdAt: string }[];
}

export const readPrinting = staffAction(
  ["CASHIER"],
  () => z.object({ orderId: formList(z.string().trim().max(64)) }),
  async ({ orderId }, { app, caller }): Promise<KioskPrinting> => {
    const [printers, jobs] = await Promise.all([app.printers.list(caller.tenant), app.printers.jobsOf(caller.tenant, orderId.slice(0, 20))]);
    return {
      printers: printers.map((p) => ({
        id: p.id,
        name: p.name,
        status: p.status,
        lastError: p.lastError,
        queued: p.queued,
        channels: p.channels,
        series: p.series,
      })),
      jobs: jobs.map((j) => ({
        id: j.id,
        orderId: j.orderId,
        display: j.display,
        printerId: j.printerId,
        state: j.state,
        lastError: j.lastError,
        createdAt: j.createdAt.toISOString(),
      })),
    };
  },
);

/** "Reprint" on a kiosk with a network printer: the server prints the ticket again (on `printer`, else the order's). */
export const reprintTicket = staffAction(
  ["CASHIER"],
  () => z.object({ orderId: z.string().trim().max(64), printer: z.string().trim().max(64).optional() }),
  async ({ orderId, printer }, { app, caller }): Promise<{ jobId: string; printerId: string }> => {
    const order = await app.orders.get(caller.tenant, orderId);
    const origin = publicOrigin({ env: app.env, requestOrigin: requestOrigin(await headers()) });
    const job = await app.printers.reprint(
      caller.tenant,
      order,
      printer ? { printerId: printer } : {},
      `${origin}${trackPath(caller.tenant, order.id)}`,
      caller.actor,
    );
    return { jobId: job.id, printerId: job.printerId };
  },
);

/** The menu and settings again, when an open kiosk hears menu:changed or settings:changed (or reconnects). */
export const readKiosk = staffAction(
  ["CASHIER"],
  () => z.object({}),
  (_input, { app, caller }): Promise<KioskView> => kioskView(app, caller.tenant),
);
