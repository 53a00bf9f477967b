/**
 * Starting a new shift: the manager's one-click reset. The shift is recorded in the
 * database and the live counter moved in the same step; if the counter cannot be moved,
 * nothing is recorded.
 */
import { z } from "zod";
import { parseOrThrow } from "./orders";
import { BLOCK_SIZE, CounterUnavailableError, type Clock, type FastCounter, type NumberIssuer } from "./numbering";
import type { EventPublisher, Logger, OrderRepository, ShiftInfo, ShiftRepository } from "./ports";
import type { Tenant } from "./tenants";
import type { AuditLog } from "./audit";

export const startShiftSchema = z.strictObject({
  reason: z.string().trim().max(200, "Reason is too long (200 characters at most)").optional(),
  firstNumber: z.number().int("First number must be a whole number").min(1).max(9999).optional(),
  /** The shift the manager was looking at; if it already moved on, no second shift starts. */
  ifCurrentShift: z.number().int().min(1).optional(),
  /** Orders still open from earlier shifts: keep them on the board and in the kitchen (default), or clear them. */
  openOrders: z.enum(["keep", "clear"]).default("keep"),
});

export class ShiftService {
  constructor(
    private readonly deps: { issuer: NumberIssuer; counter: FastCounter; shifts: ShiftRepository; orders: OrderRepository; events: EventPublisher; audit: AuditLog; log: Logger; clock: Clock },
  ) {}

  async start(tenant: Tenant, input: unknown, startedBy: string): Promise<{ shift: ShiftInfo; created: boolean; cleared: number }> {
    const data = parseOrThrow(startShiftSchema, input ?? {}, "shift");
    const { issuer, counter, shifts, events } = this.deps;
    const day = issuer.today(tenant);
    const firstNumber = data.firstNumber ?? 1;
    const result = await shifts.startShift(
      tenant.id,
      day,
      { startedBy, reason: data.reason ?? null, firstNumber, ifCurrentShift: data.ifCurrentShift, blockSize: BLOCK_SIZE },
      async (_shift, block) => {
        // Move Redis to the new shift before the shift is committed, so that no block of
        // the new shift can be reserved before its first one is in place (no gap).
        try {
          return await counter.restore(tenant.id, block, issuer.expiry(tenant, day));
        } catch (e) {
          if (!(e instanceof CounterUnavailableError)) throw e;
          // Redis unreachable: the shift still starts, and its numbers come from
          // PostgreSQL. A node that still reaches Redis learns of the new shift when it
          // next reserves a block: at most BLOCK_SIZE more numbers of the old shift.
          this.deps.log.warn({ tenant: tenant.slug, err: e.message }, "new shift recorded while Redis is unreachable");
          return false;
        }
      },
    );
    let cleared = 0;
    if (result.created && data.openOrders === "clear") {
      cleared = await this.deps.orders.clearOpen(tenant.id, day, result.shift.shift, this.deps.clock.now());
    }
    if (result.created) {
      await this.deps.audit
        .record(tenant.id, {
          actor: startedBy,
          action: "shift.start",
          details: { businessDay: day, shift: result.shift.shift, firstNumber, reason: data.reason ?? null, trigger: "manual", openOrders: data.openOrders, cleared },
        })
        .catch((e: unknown) => this.deps.log.error({ tenant: tenant.slug, err: e instanceof Error ? e.message : String(e) }, "could not write the audit entry of a shift start"));
      events.shiftStarted(tenant, {
        businessDay: result.shift.businessDay,
        shift: result.shift.shift,
        startedAt: result.shift.startedAt.toISOString(),
      });
    }
    return { ...result, cleared };
  }

  /** What the new-shift confirmation tells the manager: how many orders are still open today. */
  async openCount(tenant: Tenant): Promise<number> {
    return this.deps.orders.countOpen(tenant.id, this.deps.issuer.today(tenant));
  }
}
