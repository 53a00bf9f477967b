/** A restaurant's settings in PostgreSQL (table Tenant), changed together with their audit entry. */
import { AppError } from "@/lib/core/errors";
import { formatDayStart, parseDayStart } from "@/lib/core/business-day";
import { asLocale } from "@/lib/core/locales";
import type { TenantSettings } from "@/lib/core/settings";
import { type Db, Prisma } from "./prisma.server";
import type { Tenant as TenantRow } from "./generated/prisma/client";
import type { SettingsStore } from "@/lib/core/ports";
import { asReadyWhen } from "@/lib/core/stations";
import { asAskService, asChannels, asService } from "@/lib/core/orders";

function toSettings(row: TenantRow): TenantSettings {
  return {
    name: row.name,
    timezone: row.timeZone,
    dayStartsAt: formatDayStart(row.dayStartMinutes),
    language: asLocale(row.language),
    schedule: [...row.schedule],
    readyClearMinutes: row.readyClearMinutes,
    ageWarnMinutes: row.ageWarnMinutes,
    ageLateMinutes: row.ageLateMinutes,
    currency: row.currency,
    kioskNumberOnly: row.kioskNumberOnly,
    printGiveUpMinutes: row.printGiveUpMinutes,
    readyWhen: asReadyWhen(row.readyWhen),
    sharedCodes: row.sharedCodes,
    askService: asAskService(row.askService),
    defaultService: asService(row.defaultService) ?? "eatIn",
    soldOutAcceptedFrom: asChannels(row.soldOutAcceptedFrom),
  };
}

export class PrismaSettingsStore implements SettingsStore {
  constructor(private readonly db: Db) {}

  async update(tenantId: string, change: Parameters<SettingsStore["update"]>[1]): Promise<TenantSettings> {
    return this.db.$transaction(async (tx) => {
      // Two managers saving at once: the second one diffs against the first one's result.
      await tx.$executeRaw`SELECT 1 FROM "Tenant" WHERE "id" = ${tenantId}::uuid FOR UPDATE`;
      const row = await tx.tenant.findUnique({ where: { id: tenantId } });
      if (!row) throw new AppError("NOT_FOUND", { message: `Tenant ${tenantId} vanished`, userMessage: "This restaurant no longer exists." });
      const before = toSettings(row);
      const { next, audit } = change(before);
      if (!audit) return toSettings(row);
      // Shared codes off leaves only people's PINs: a restaurant without an active manager of its own would lock itself out.
      // Under the tenant's lock, as every change of a person's role or active is (staff-member-store).
      if (!next.sharedCodes && before.sharedCodes && !(await tx.staffMember.count({ where: { tenantId, role: "MANAGER", active: true } }))) {
        throw new AppError("CONFLICT", {
          message: `Shared codes off without an active manager at ${tenantId}`,
          userMessage: "Add a manager with their own PIN first: with shared codes off, nobody could open the console.",
          reason: "noManagerPin",
          details: { fields: [{ path: "sharedCodes", message: "Add a manager with their own PIN first" }] },
        });
      }
      // Slots are wall times in the zone from the day start: any of the three moves them.
      const slotsMoved = next.schedule.join() !== before.schedule.join() || next.timezone !== before.timezone || next.dayStartsAt !== before.dayStartsAt;
      const saved = await tx.tenant.update({
        where: { id: tenantId },
        data: {
          name: next.name,
          timeZone: next.timezone,
          dayStartMinutes: parseDayStart(next.dayStartsAt) ?? row.dayStartMinutes,
          language: next.language,
          schedule: next.schedule,
          readyClearMinutes: next.readyClearMinutes,
          ageWarnMinutes: next.ageWarnMinutes,
          ageLateMinutes: next.ageLateMinutes,
          currency: next.currency,
          kioskNumberOnly: next.kioskNumberOnly,
          printGiveUpMinutes: next.printGiveUpMinutes,
          readyWhen: next.readyWhen,
          sharedCodes: next.sharedCodes,
          askService: next.askService,
          defaultService: next.defaultService,
          soldOutAcceptedFrom: next.soldOutAcceptedFrom,
          ...(slotsMoved ? { scheduleChangedAt: new Date() } : {}),
        },
      });
      await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: audit.details as Prisma.InputJsonValue } });
      return toSettings(saved);
    });
  }
}
