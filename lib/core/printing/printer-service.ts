/**
 * A restaurant's network printers: added, changed and removed by a manager (audited), a
 * test page, a ticket printed again, and what the printers and their jobs are doing
 * (decision 0029). An address is checked against the operator's PRINTER_NETWORKS and
 * PRINTER_PORTS here, at creation, and again at every connection.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { parseOrThrow } from "../orders";
import type { AddressClaim, CacheInvalidator, EventPublisher, HostResolver, Logger, PrinterStore, PrinterView, PrintJobView, PrinterRoutes } from "../ports";
import { seriesOf } from "../series";
import type { Tenant } from "../tenants";
import type { Order } from "../orders";
import { PRINTER_REFUSALS, printerAddressKey, printerDestination, type PrinterNetworkPolicy, type PrinterRefusalCode } from "./printer-network";
import { newPrinterSchema, printerForOrder, printerPatchSchema, type PrinterFields } from "./printers";
import { defaultCharset } from "./print-content";

const notFound = (id: string) =>
  new AppError("NOT_FOUND", { message: `No printer ${id}`, userMessage: "This printer does not exist.", reason: "printerNotFound" });

const noPrinter = (display: string) =>
  new AppError("CONFLICT", {
    message: `No printer prints the tickets of order ${display}: add one for its channel or series, or name one`,
    userMessage: "No printer is set up for this order's tickets.",
    reason: "noPrinter",
  });

/**
 * A refused printer address as the restaurant reads it: the code's sentence only (no
 * resolved address, nothing of another restaurant's printers); `refusal` names the code the
 * console translates, `message` the detail for the log.
 */
export const printerRefused = (code: PrinterRefusalCode, field: "host" | "port", detail: string): AppError =>
  new AppError("BAD_INPUT", {
    message: `${field}: ${detail}`,
    userMessage: PRINTER_REFUSALS[code],
    reason: "printerRefused",
    details: { fields: [{ path: field, message: PRINTER_REFUSALS[code] }], refusal: code },
  });

/** `{ printerId? }`: which printer reprints; absent, the one the order's channel and series use. */
export const reprintSchema = z.strictObject({ printerId: z.string({ error: "printerId must be a printer's id" }).optional() });

export const jobsQuerySchema = z.strictObject({
  printerId: z.string().optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(200, "limit must be at most 200")
    .default(50),
});

const fieldsOf = (p: PrinterFields): PrinterFields => ({
  name: p.name,
  host: p.host,
  port: p.port,
  paper: p.paper,
  charset: p.charset,
  channels: [...p.channels],
  series: [...p.series],
});

export interface PrinterServiceDeps {
  store: PrinterStore;
  routes: PrinterRoutes;
  resolve: HostResolver;
  policy: PrinterNetworkPolicy;
  /** PRINTER_SHARED_ADDRESSES=allow: restaurants may add printers at one host:port; else an address is one printer's (a unique index). */
  sharedAddresses: boolean;
  invalidate: Pick<CacheInvalidator, "printersChanged">;
  events: Pick<EventPublisher, "printersChanged">;
  log: Pick<Logger, "info">;
  /** Refuses (RATE_LIMITED) a reprint beyond the caps per order and per printer (decision 0041); absent: none. */
  reprints?: { allow(tenantId: string, orderId: string, printerId: string): Promise<void> };
}

export class PrinterService {
  constructor(private readonly deps: PrinterServiceDeps) {}

  list(tenant: Tenant): Promise<PrinterView[]> {
    return this.deps.store.list(tenant.id);
  }

  async create(tenant: Tenant, input: unknown, actor: string): Promise<PrinterView> {
    const parsed = parseOrThrow(newPrinterSchema, input ?? {}, "printer");
    const fields: PrinterFields = { ...parsed, charset: parsed.charset ?? defaultCharset(tenant.floor.language) };
    this.checkSeries(tenant, fields.series);
    await this.checkAddress(tenant, fields);
    const made = await this.deps.store.create(
      tenant.id,
      fields,
      { actor, action: "printer.create", details: { ...fieldsOf(fields) } },
      this.claim(tenant, fields),
    );
    await this.changed(tenant);
    return made;
  }

  async update(tenant: Tenant, id: string, input: unknown, actor: string): Promise<PrinterView> {
    const patch = parseOrThrow(printerPatchSchema, input ?? {}, "printer");
    if (!isUuid(id)) throw notFound(id);
    const before = await this.deps.store.get(tenant.id, id);
    if (!before) throw notFound(id);
    const next: PrinterFields = { ...fieldsOf(before), ...patch };
    if (patch.series) this.checkSeries(tenant, next.series);
    if (patch.host !== undefined || patch.port !== undefined) await this.checkAddress(tenant, next);
    const saved = await this.deps.store.update(tenant.id, id, (current) => {
      const merged: PrinterFields = { ...fieldsOf(current), ...patch };
      const changes = Object.fromEntries(
        (Object.keys(patch) as (keyof PrinterFields)[])
          .filter((k) => JSON.stringify(current[k]) !== JSON.stringify(merged[k]))
          .map((k) => [k, { from: current[k], to: merged[k] }]),
      );
      return { fields: merged, audit: { actor, action: "printer.update", details: { name: current.name, changes } }, address: this.claim(tenant, merged) };
    });
    if (!saved) throw notFound(id);
    await this.changed(tenant);
    return saved;
  }

  /** Removes a printer; its waiting tickets go with it (the console says how many before). */
  async remove(tenant: Tenant, id: string, actor: string): Promise<PrinterView> {
    if (!isUuid(id)) throw notFound(id);
    const gone = await this.deps.store.remove(tenant.id, id, (p) => ({ actor, action: "printer.delete", details: { ...fieldsOf(p) } }));
    if (!gone) throw notFound(id);
    await this.changed(tenant);
    return gone;
  }

  /** Queues a test page on the printer. */
  async test(tenant: Tenant, id: string, actor: string): Promise<PrintJobView> {
    const printer = isUuid(id) ? await this.deps.store.get(tenant.id, id) : null;
    if (!printer) throw notFound(id);
    const job = await this.deps.store.enqueue(
      tenant.id,
      { printerId: printer.id, orderId: null, kind: "test", url: null },
      { actor, action: "printer.test", details: { name: printer.name } },
    );
    this.deps.events.printersChanged(tenant);
    return job;
  }

  /**
   * Prints an order's ticket again: on `printerId` when given, else on the printer its
   * channel and series use; a 409 when none does.
   */
  async reprint(tenant: Tenant, order: Order, input: unknown, url: string, actor: string): Promise<PrintJobView> {
    const { printerId } = parseOrThrow(reprintSchema, input ?? {}, "reprint");
    const chosen = await this.printerFor(tenant, order, printerId ?? null);
    if (printerId !== undefined && chosen?.printerId !== printerId) throw notFound(printerId);
    if (!chosen) throw noPrinter(`${order.prefix}${order.number}`);
    await this.deps.reprints?.allow(tenant.id, order.id, chosen.printerId);
    const job = await this.deps.store.enqueue(
      tenant.id,
      { printerId: chosen.printerId, orderId: order.id, kind: "ticket", url },
      { actor, action: "printer.reprint", details: { orderId: order.id, number: order.number, prefix: order.prefix } },
    );
    this.deps.events.printersChanged(tenant);
    return job;
  }

  /** The latest print jobs, newest first (`?printerId=&limit=`). */
  async jobs(tenant: Tenant, query: unknown): Promise<PrintJobView[]> {
    const q = parseOrThrow(jobsQuerySchema, query ?? {}, "query");
    if (q.printerId !== undefined && !isUuid(q.printerId)) throw notFound(q.printerId);
    return this.deps.store.jobs(tenant.id, { ...(q.printerId ? { printerId: q.printerId.toLowerCase() } : {}), limit: q.limit });
  }

  /** The ticket jobs of `orderIds` (a kiosk's recent tickets; their stations' chits are not the customer's), newest first: the first of each order is its latest. */
  jobsOf(tenant: Tenant, orderIds: readonly string[]): Promise<PrintJobView[]> {
    const ids = orderIds.filter(isUuid);
    return ids.length === 0 ? Promise.resolve([]) : this.deps.store.jobs(tenant.id, { orderIds: ids, kind: "ticket", limit: 200 });
  }

  /**
   * Where a new order's ticket prints: the device's printer, else the one its series or
   * channel use; null when none does (or `skip`: `"print": false`).
   */
  async printerFor(tenant: Tenant, order: { channel: string; seriesId: string | null }, devicePrinterId: string | null): Promise<{ printerId: string } | null> {
    const routes = await this.deps.routes.routes(tenant.id);
    if (routes.length === 0) return null;
    const id = printerForOrder(routes, order, devicePrinterId);
    return id ? { printerId: id } : null;
  }

  private checkSeries(tenant: Tenant, ids: readonly string[]): void {
    const known = new Set(seriesOf(tenant).map((s) => s.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) {
      const message = `series: no series ${unknown} in this restaurant`;
      throw new AppError("BAD_INPUT", { message, details: { fields: [{ path: "series", message }] } });
    }
  }

  private async checkAddress(tenant: Tenant, p: Pick<PrinterFields, "host" | "port">): Promise<void> {
    const found = await printerDestination(p, this.deps.policy, this.deps.resolve);
    if ("refusal" in found) {
      this.deps.log.info({ tenantId: tenant.id, host: p.host, port: p.port, refusal: found.refusal }, "printer address refused");
      throw printerRefused(found.code, found.field, found.refusal);
    }
  }

  /** The address `p` claims: none while addresses are shared; refused in the same sentence as any other address when another printer has it. */
  private claim(tenant: Tenant, p: Pick<PrinterFields, "host" | "port">): AddressClaim {
    const addressKey = this.deps.sharedAddresses ? null : printerAddressKey(p);
    return {
      addressKey,
      addressTaken: () => {
        this.deps.log.info({ tenantId: tenant.id, addressKey }, "printer address refused: another printer has it");
        return printerRefused("notAllowed", "host", `${addressKey} is another printer's (PRINTER_SHARED_ADDRESSES is not allow)`);
      },
    };
  }

  private async changed(tenant: Tenant): Promise<void> {
    await this.deps.invalidate.printersChanged(tenant.id);
    this.deps.events.printersChanged(tenant);
  }
}
