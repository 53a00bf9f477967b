/**
 * One attempt of one message, as the queue hands it over: sign and send, record what
 * happened, schedule the next attempt or end the message. At least once: an attempt whose
 * record was lost (a crash right after the POST) is made again, with the same webhook-id.
 */
import type { Logger, Clock, DeliveryLedger, DueDelivery, WebhookMetrics, WebhookSender } from "../ports";
import { outcomeOf } from "./retry";
import { TenantSlots } from "../fair-share";

/** How long an attempt beyond its restaurant's share waits before its job comes back (decision 0044). */
export const WEBHOOK_DEFER_MS = 2_000;

export interface WebhookDispatcherDeps {
  ledger: DeliveryLedger;
  send: WebhookSender;
  metrics: WebhookMetrics;
  log: Logger;
  clock: Clock;
  retryBaseMs: number;
  /** Attempts of one restaurant at once on this node (a fair share of the workers); unset: no limit. */
  perTenant?: number;
}

export class WebhookDispatcher {
  /** This node's attempts in flight, per restaurant. */
  private readonly slots: TenantSlots;

  constructor(private readonly deps: WebhookDispatcherDeps) {
    this.slots = new TenantSlots(deps.perTenant);
  }

  /** Makes the attempt `jobId` owns; a stale job does nothing. Rejects only when the ledger fails (the queue retries the job). */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const { ledger, metrics, clock } = this.deps;
    try {
      const due = await ledger.due(deliveryId, jobId);
      if (!due) return;
      // Checked before the POST: a restaurant whose endpoints never answer holds at most its share of the workers.
      if (await this.slots.run(due.tenantId, () => this.make(deliveryId, jobId, due))) return;
      await ledger.defer(deliveryId, jobId, new Date(clock.now().getTime() + WEBHOOK_DEFER_MS));
      metrics.delivery("deferred");
    } catch (e) {
      metrics.delivery("failed");
      throw e;
    }
  }

  /** Signs and sends one attempt, records what it answered and schedules the next one. */
  private async make(deliveryId: string, jobId: string, due: DueDelivery): Promise<void> {
    const { ledger, send, metrics, log, clock } = this.deps;
    const result =
      due.secret === null
        ? { status: null, error: "the signing secret cannot be read (SESSION_SECRET changed?): delete this webhook and create it again" }
        : await send({ url: due.url, id: due.id, body: due.body, secret: due.secret });
    const at = clock.now();
    const attempts = due.attempts + 1;
    const { outcome, nextAttemptAt } = outcomeOf(result, attempts, this.deps.retryBaseMs, at);
    await ledger.record(deliveryId, jobId, { attempts, at, result, delivered: outcome === "delivered", nextAttemptAt });
    metrics.delivery(outcome);
    if (outcome !== "delivered")
      log.warn(
        { tenantId: due.tenantId, delivery: due.id, type: due.type, attempts, status: result.status, err: result.detail ?? result.error, outcome },
        "webhook attempt failed",
      );
  }
}
