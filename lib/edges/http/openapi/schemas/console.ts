/** The manager's console answers that no *Json builder makes: settings, audit, keys made, staff codes, pings. */
import { READY_WHEN } from "@/lib/core/stations";
import { z } from "zod";
import { LOCALES } from "@/lib/core/locales";
import { STAFF_ROLES } from "@/lib/core/tenants";
import { ASK_SERVICE, CHANNELS, SERVICES } from "@/lib/core/orders";

export const settingsSchema = z
  .object({
    name: z.string(),
    timezone: z.string().meta({ description: "An IANA zone." }),
    dayStartsAt: z.string().meta({ description: '"HH:MM": when the business day starts.' }),
    language: z.enum(LOCALES).nullable(),
    schedule: z.array(z.string()),
    readyClearMinutes: z.int(),
    ageWarnMinutes: z.int(),
    ageLateMinutes: z.int(),
    currency: z.string().nullable(),
    kioskNumberOnly: z.boolean(),
    sharedCodes: z.boolean().meta({ description: "Whether the role codes shared by a role sign in; false: people's own PINs only." }),
    printGiveUpMinutes: z.int(),
    readyWhen: z.enum(READY_WHEN).meta({
      description:
        "With kitchen stations: `parts` — an order is ready when its last station is done; `expo` — when the expo (the main kitchen screen) bumps it.",
    }),
    askService: z.enum(ASK_SERVICE).meta({
      description: 'Whether the kiosk asks "eat in or take away": `off`, `ask` (for every order), `remember` (the device keeps the last choice).',
    }),
    defaultService: z.enum(SERVICES).meta({ description: "What an order stating no `service` is, while `askService` is not `off`." }),
    soldOutAcceptedFrom: z.array(z.enum(CHANNELS)).meta({
      description: "Channels whose orders are taken with a sold-out dish (the line flagged `soldOut`) instead of refused; never `kiosk`.",
    }),
  })
  .meta({ id: "Settings" });

export const auditListSchema = z
  .object({
    entries: z.array(
      z.object({
        at: z.iso.datetime(),
        actor: z.string(),
        action: z.string(),
        details: z.unknown().meta({ description: "What the action changed; never a code or a key." }),
      }),
    ),
  })
  .meta({ id: "AuditList" });

export const apiKeyCreatedSchema = z
  .object({
    id: z.string(),
    role: z.enum(STAFF_ROLES),
    name: z.string(),
    prefix: z.string(),
    key: z.string().meta({ description: "The key itself: in this answer only." }),
  })
  .meta({ id: "ApiKeyCreated" });

export const staffCodeSchema = z
  .object({
    role: z.enum(STAFF_ROLES),
    code: z.string().meta({ description: "The new sign-in code: shown once." }),
    generation: z.int().min(1),
  })
  .meta({ id: "StaffCode" });

export const pingQueuedSchema = z.object({ deliveryId: z.string() }).meta({ id: "PingQueued" });
