"use server";

import { headers } from "next/headers";
import { refresh } from "next/cache";
import { z } from "zod";
import { CHANNELS } from "@/lib/core/orders";
import { trackPath } from "@/lib/core/order-json";
import { CHARSETS, MAX_PRINTER_NAME, PAPERS } from "@/lib/core/printing/printers";
import { printerHostProblem } from "@/lib/core/printing/printer-network";
import { formList, staffAction, type Translator } from "@/lib/edges/next/validated-action.server";
import { publicOrigin } from "@/lib/server/http/public-origin.server";
import { requestOrigin } from "@/app/_lib/tenant.server";

/** What a printer form reports back: the printer it acted on, for its status line. */
export interface PrinterResult {
  id: string;
  name: string;
}

/**
 * The printer form's fields, checked here first so that errors read in the screen's
 * language; the core checks again, and checks the address against PRINTER_NETWORKS and
 * PRINTER_PORTS (a refusal names the field "host").
 */
const printerFields = (t: Translator) =>
  z.object({
    name: z
      .string()
      .trim()
      .min(1, t("managerPrinters.errors.name", { max: MAX_PRINTER_NAME }))
      .max(MAX_PRINTER_NAME, t("managerPrinters.errors.name", { max: MAX_PRINTER_NAME })),
    host: z
      .string()
      .trim()
      .refine((h) => printerHostProblem(h) === null, t("managerPrinters.errors.host")),
    port: z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, t("managerPrinters.errors.port"))
      .transform(Number)
      .pipe(z.number().int().min(1, t("managerPrinters.errors.port")).max(65_535, t("managerPrinters.errors.port"))),
    paper: z.enum(PAPERS, { error: t("managerPrinters.errors.badRequest") }),
    charset: z.enum(CHARSETS, { error: t("managerPrinters.errors.badRequest") }),
    channels: formList(z.enum(CHANNELS, { error: t("managerPrinters.errors.badRequest") })),
    series: formList(z.string().max(64, t("managerPrinters.errors.badRequest"))),
  });

const idField = (t: Translator) => z.string().min(1, t("managerPrinters.errors.badRequest")).max(64, t("managerPrinters.errors.badRequest"));

export const createPrinter = staffAction(["MANAGER"], printerFields, async (input, { app, caller }): Promise<PrinterResult> => {
  const made = await app.printers.create(caller.tenant, input, caller.actor);
  refresh();
  return { id: made.id, name: made.name };
});

/** Saves every field of the form: the core records only what changed. */
export const updatePrinter = staffAction(
  ["MANAGER"],
  (t) => printerFields(t).and(z.object({ id: idField(t) })),
  async ({ id, ...fields }, { app, caller }): Promise<PrinterResult> => {
    const saved = await app.printers.update(caller.tenant, id, fields, caller.actor);
    refresh();
    return { id: saved.id, name: saved.name };
  },
);

/** Removes a printer; its waiting tickets go with it (the confirmation said how many). */
export const removePrinter = staffAction(
  ["MANAGER"],
  (t) => z.object({ id: idField(t) }),
  async ({ id }, { app, caller }): Promise<PrinterResult & { dropped: number }> => {
    const gone = await app.printers.remove(caller.tenant, id, caller.actor);
    refresh();
    return { id: gone.id, name: gone.name, dropped: gone.queued };
  },
);

/** Queues a test page; the jobs list shows how it went. */
export const testPrinter = staffAction(
  ["MANAGER"],
  (t) => z.object({ id: idField(t) }),
  async ({ id }, { app, caller }): Promise<{ printerId: string; name: string }> => {
    const job = await app.printers.test(caller.tenant, id, caller.actor);
    refresh();
    return { printerId: job.printerId, name: job.printerName };
  },
);

/** Prints a ticket again on the printer of the job that gave up; its QR code leads to the order's page, as on the kiosk. */
export const reprintJob = staffAction(
  ["MANAGER"],
  (t) => z.object({ orderId: idField(t), printerId: idField(t) }),
  async ({ orderId, printerId }, { app, caller }): Promise<{ display: string | null; printer: string }> => {
    const order = await app.orders.get(caller.tenant, orderId);
    const origin = publicOrigin({ env: app.env, requestOrigin: requestOrigin(await headers()) });
    const job = await app.printers.reprint(caller.tenant, order, { printerId }, `${origin}${trackPath(caller.tenant, order.id)}`, caller.actor);
    refresh();
    return { display: job.display, printer: job.printerName };
  },
);
