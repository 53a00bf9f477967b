/** Reading the audit trail: how many entries, newest first. */
import { z } from "zod";
import { parseOrThrow } from "./orders";

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 500;

export const auditQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, `limit must be a whole number from 1 to ${AUDIT_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit must be at least 1`).max(AUDIT_MAX_LIMIT, `limit must be at most ${AUDIT_MAX_LIMIT}`))
    .optional(),
});

/** `?limit=N` (default 50, 1–500); anything else is BAD_INPUT naming `limit`. */
export function parseAuditLimit(query: Record<string, string>): number {
  return parseOrThrow(auditQuerySchema, query, "audit query").limit ?? AUDIT_DEFAULT_LIMIT;
}
