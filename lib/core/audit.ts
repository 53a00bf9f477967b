/**
 * The audit trail: who changed what in a restaurant, and when. Every shift start,
 * settings change, code rotation, API key change, menu change and webhook change writes one entry.
 */

export const AUDIT_ACTIONS = [
  "shift.start",
  "shift.scheduleSkipped",
  "settings.update",
  "staff.rotate",
  "staff.add",
  "staff.update",
  "staff.signIn",
  "staff.pinWait",
  "staff.pinWaitAddress",
  "key.create",
  "key.revoke",
  "menu.update",
  "menu.available",
  "webhook.create",
  "webhook.delete",
  "webhook.update",
  "webhook.ping",
  "webhook.rotateSecret",
  "series.create",
  "series.update",
  "series.delete",
  "station.create",
  "station.update",
  "station.delete",
  "orders.clearForgotten",
  "counter.jumpedAfterFailover",
  "counter.jumpedAfterRestore",
  "counter.jumpedAfterImport",
  "printer.create",
  "printer.update",
  "printer.delete",
  "printer.test",
  "printer.reprint",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  at: Date;
  /** Who: "Manager (staff)", "api-key 1a2b3c4d5e6f7a8b", "scheduler". */
  actor: string;
  action: AuditAction;
  /** What changed, never a secret. */
  details: Record<string, unknown>;
}

/** The actor of what the app does by itself (clearing forgotten orders). */
export const SYSTEM_ACTOR = "system";
/** The actor of what the schedule does by itself. */
export const SCHEDULER_ACTOR = "scheduler";
