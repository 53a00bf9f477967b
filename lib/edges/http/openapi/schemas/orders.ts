/** The answers about orders that are not one order: lists, a number's orders, the board, a new shift. */
import { z } from "zod";
import { ORDER_STATUSES, SERVICES } from "@/lib/core/orders";
import { orderJsonSchema } from "@/lib/core/order-json";

const timestamp = z.iso.datetime();

export const orderListSchema = z
  .object({ businessDay: z.iso.date(), shift: z.int().min(1), orders: z.array(orderJsonSchema) })
  .meta({ id: "OrderList", description: "The current shift's orders (or every open order, asked for open ones only)." });

export const ordersByNumberSchema = z
  .object({
    businessDay: z.iso.date(),
    number: z.int().min(1),
    prefix: z.string().nullable().meta({ description: "The letters asked for; null: none, every series' orders with that number." }),
    display: z.string(),
    orders: z.array(orderJsonSchema),
  })
  .meta({ id: "OrdersByNumber", description: "Every order of a day showing a number, oldest shift first." });

export const boardOrderSchema = z
  .object({
    key: z.string().meta({ description: "Unique among the restaurant's open orders: match orders by it." }),
    number: z.int().min(1),
    prefix: z.string(),
    display: z.string(),
    status: z.enum(ORDER_STATUSES),
    businessDay: z.iso.date(),
    shift: z.int().min(1),
    createdAt: timestamp,
    readyAt: timestamp.nullable(),
    cleared: z.boolean(),
    service: z.enum(SERVICES).nullable().meta({ description: "Eat in or take away; null: not stated (boards mark take-away numbers)." }),
  })
  .meta({ id: "BoardOrder", description: "An order as the board shows it: no id." });

export const boardSchema = z
  .object({
    businessDay: z.iso.date(),
    shift: z.int().min(1),
    readyClearMinutes: z.int().min(1),
    preparing: z.array(boardOrderSchema),
    ready: z.array(boardOrderSchema),
  })
  .meta({ id: "Board" });

export const shiftStartSchema = z
  .object({
    businessDay: z.iso.date(),
    shift: z.int().min(1),
    firstNumber: z.int().min(1),
    nextNumber: z.int().min(1).meta({ description: "What the next order of the default series gets: `firstNumber` past the numbers still open." }),
    startedAt: timestamp,
    startedBy: z.string(),
    reason: z.string().nullable(),
    created: z.boolean().meta({ description: "false: `ifCurrentShift` found the day past that shift; this is the latest shift." }),
    cleared: z.int().min(0).meta({ description: 'Open orders of earlier shifts taken off the floor (`openOrders: "clear"`).' }),
  })
  .meta({ id: "ShiftStart" });
