/**
 * Starting a new shift: the manager's one-click reset. The shift is recorded in the
 * database and the live counter moved in the same step; if the counter cannot be moved,
 * nothing is recorded.
 */
import { z } from "zod";
import { parseOrThrow } from "./orders";
import type { FastCounter, NumberIssuer } from "./numbering";
import type { EventPublisher, ShiftInfo, ShiftRepository } from "./ports";
import type { Tenant } from "./tenants";

export const startShiftSchema = z.strictObject({
  reason: z.string().trim().max(200, "Reason is too long (200 characters at most)").optional(),
  firstNumber: z.number().int("First number must be a whole number").min(1).max(9999).optional(),
  /** The shift the manager was looking at; if it already moved on, no second shift starts. */
  ifCurrentShift: z.number().int().min(1).optional(),
});

export class ShiftService {
  constructor(
    private readonly deps: { issuer: NumberIssuer; counter: FastCounter; shifts: ShiftRepository; events: EventPublisher },
  ) {}

  async start(tenant: Tenant, input: unknown, startedBy: string): Promise<{ shift: ShiftInfo; created: boolean }> {
    const data = parseOrThrow(startShiftSchema, input ?? {}, "shift");
    const { issuer, counter, shifts, events } = this.deps;
    const day = issuer.today(tenant);
    const firstNumber = data.firstNumber ?? 1;
    const result = await shifts.startShift(
      tenant.id,
      day,
      { startedBy, reason: data.reason ?? null, firstNumber, ifCurrentShift: data.ifCurrentShift },
      async (s) => {
        await counter.advance(tenant.id, { businessDay: s.businessDay, shift: s.shift, last: firstNumber - 1 }, issuer.expiry(tenant, day));
      },
    );
    if (result.created) {
      events.shiftStarted(tenant, {
        businessDay: result.shift.businessDay,
        shift: result.shift.shift,
        startedAt: result.shift.startedAt.toISOString(),
      });
    }
    return result;
  }
}
