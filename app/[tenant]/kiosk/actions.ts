"use server";

import { headers } from "next/headers";
import { toDataURL } from "qrcode";
import { AppError } from "@/lib/core/errors";
import { ORDER_LIMITS, type OrderItem } from "@/lib/core/orders";
import { staffAction } from "@/lib/adapters/next/staff.server";
import { requestOrigin } from "@/app/_lib/tenant.server";
import { formatTime } from "@/app/_lib/format";

export interface IssuedTicket {
  orderId: string;
  number: number;
  /** False when this was a retry of an order already taken (same idempotency key). */
  created: boolean;
  restaurant: string;
  time: string;
  items: OrderItem[];
  note: string | null;
  /** Where the customer follows the order; encoded in `qr`. */
  url: string;
  qr: string;
}

function badInput(userMessage: string): AppError {
  return new AppError("BAD_INPUT", { message: userMessage, userMessage });
}

/** Reads the item rows; rows without a name are ignored, a blank quantity means 1. */
function readItems(form: FormData): OrderItem[] {
  const names = form.getAll("itemName").map((v) => String(v).trim());
  const qtys = form.getAll("itemQty").map((v) => String(v).trim());
  const items: OrderItem[] = [];
  names.forEach((name, i) => {
    if (!name) return;
    const row = i + 1;
    const rawQty = qtys[i] ?? "";
    const qty = rawQty === "" ? 1 : Number(rawQty);
    if (!Number.isInteger(qty) || qty < 1 || qty > ORDER_LIMITS.qty) {
      throw badInput(`Item ${row} (${name}): quantity must be a whole number from 1 to ${ORDER_LIMITS.qty}.`);
    }
    if (name.length > ORDER_LIMITS.itemName) throw badInput(`Item ${row}: the name is too long (${ORDER_LIMITS.itemName} characters at most).`);
    items.push({ name, qty });
  });
  if (items.length > ORDER_LIMITS.items) throw badInput(`At most ${ORDER_LIMITS.items} items per order.`);
  return items;
}

export const placeOrder = staffAction<IssuedTicket>(["CASHIER"], async (caller, form, app) => {
  const items = readItems(form);
  const note = String(form.get("note") ?? "").trim();
  if (note.length > ORDER_LIMITS.note) throw badInput(`The note is too long (${ORDER_LIMITS.note} characters at most).`);
  const idempotencyKey = String(form.get("idempotencyKey") ?? "").trim() || null;

  const { order, created } = await app.orders.place(caller.tenant, { items, ...(note ? { note } : {}) }, { channel: "kiosk", idempotencyKey });

  const url = `${requestOrigin(await headers())}/${caller.tenant.slug}/o/${order.id}`;
  const qr = await toDataURL(url, { errorCorrectionLevel: "M", margin: 1, width: 320 });
  return {
    orderId: order.id,
    number: order.number,
    created,
    restaurant: caller.tenant.name,
    time: formatTime(order.createdAt, caller.tenant.timeZone),
    items: order.items,
    note: order.note,
    url,
    qr,
  };
});
