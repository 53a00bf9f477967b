/**
 * One attempt of one message, as the queue hands it over: sign and send, record what
 * happened, schedule the next attempt or end the message. At least once: an attempt whose
 * record was lost (a crash right after the POST) is made again, with the same webhook-id.
 */
import type { Logger, Clock, DeliveryLedger, WebhookMetrics, WebhookSender } from "../ports";
import { outcomeOf } from "./retry";

export class WebhookDispatcher {
  constructor(
    private readonly deps: { ledger: DeliveryLedger; send: WebhookSender; metrics: WebhookMetrics; log: Logger; clock: Clock; retryBaseMs: number },
  ) {}

  /** Makes the attempt `jobId` owns; a stale job does nothing. Rejects only when the ledger fails (the queue retries the job). */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const { ledger, send, metrics, log, clock } = this.deps;
    try {
      const due = await ledger.due(deliveryId, jobId);
      if (!due) return;
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
    } catch (e) {
      metrics.delivery("failed");
      throw e;
    }
  }
}
