import { lineLabel } from "@/lib/core/menu-options";
import type { OrderItem } from "@/lib/core/orders";

/** An order's lines on one row ("2× Beef noodles · Large, 1× Tea"): the compact rows of ready and done orders. */
export const itemsLine = (items: readonly OrderItem[]): string => items.map((i) => `${i.qty}× ${lineLabel(i)}`).join(", ");
