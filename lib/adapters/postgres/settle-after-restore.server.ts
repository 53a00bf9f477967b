/**
 * Work a restored database or an imported restaurant must not resume (decisions 0046, 0050):
 * a print job that was waiting at the backup may have printed after it, and a ticket prints
 * at most once, so it is given up as "may have printed" (the console offers Print again);
 * a webhook message that was waiting has no queued attempt any more (the queue is not in
 * the file), so it is given up, said in its last error, rather than left waiting for ever;
 * a customer's push that was waiting would announce a state of the backup's time, so it is
 * closed unsent (the sweep makes no other: one push per subscription and call, 0053).
 */
import type pg from "pg";
import { MAYBE_PRINTED } from "@/lib/core/printing/print-drainer";

export async function settleAfterRestore(
  client: pg.ClientBase,
  why: string,
  tenantId?: string,
): Promise<{ printJobs: number; webhooks: number; pushes: number }> {
  const scope = tenantId ? ` AND "tenantId" = $2::uuid` : "";
  const params = (first: string) => (tenantId ? [first, tenantId] : [first]);
  const jobs = await client.query(
    `UPDATE "PrintJob" SET state = 'gaveUp', "gaveUpAt" = now(), holder = NULL, "lastError" = $1
      WHERE state IN ('queued', 'printing')${scope}`,
    params(MAYBE_PRINTED),
  );
  const hooks = await client.query(
    `UPDATE "WebhookDelivery" SET "gaveUpAt" = now(), "nextAttemptAt" = NULL, "jobId" = NULL, "lastError" = $1
      WHERE "deliveredAt" IS NULL AND "gaveUpAt" IS NULL${scope}`,
    params(`not sent: ${why}`),
  );
  const pushes = await client.query(
    `UPDATE "PushDelivery" SET outcome = 'skipped', "finishedAt" = now(), "jobId" = NULL, "lastError" = $1
      WHERE outcome IS NULL${scope}`,
    params(`not sent: ${why}`),
  );
  return { printJobs: jobs.rowCount ?? 0, webhooks: hooks.rowCount ?? 0, pushes: pushes.rowCount ?? 0 };
}
