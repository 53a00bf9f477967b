/**
 * One push of one delivery, as the queue hands it over (decision 0053): still worth sending
 * (the order is still ready and on the floor, the window not past, the endpoint still
 * allowed)? Encrypt, sign, send, then record what the push service said.
 */
import type { Clock, Logger, PushLedger, PushMetrics, PushSender } from "../ports";
import { endpointProblem } from "./push-services";
import { pushPayload, pushTopic } from "./push-payload";
import { pushOutcomeOf, ttlSeconds } from "./push-retry";
import { TenantSlots } from "../fair-share";

/** How long a push beyond its restaurant's share waits before its job comes back (as webhooks, decision 0044). */
export const PUSH_DEFER_MS = 1_000;
const MAX_ERROR = 300;

export interface PushDispatcherDeps {
  ledger: PushLedger;
  send: PushSender;
  metrics: PushMetrics;
  log: Logger;
  clock: Clock;
  /** PUSH_SERVICES: origins allowed besides the built-in push services. */
  services: readonly string[];
  /** Pushes of one restaurant at once on this node; unset: no limit. */
  perTenant?: number;
}

export class PushDispatcher {
  /** This node's sends in flight, per restaurant. */
  private readonly slots: TenantSlots;

  constructor(private readonly deps: PushDispatcherDeps) {
    this.slots = new TenantSlots(deps.perTenant);
  }

  /** Rejects only when the ledger fails (the queue runs the job again). */
  async attempt(deliveryId: string, jobId: string): Promise<void> {
    const { ledger, metrics, clock } = this.deps;
    const due = await ledger.due(deliveryId, jobId);
    if (!due) return;
    if (await this.slots.run(due.tenantId, () => this.make(deliveryId, jobId, due))) return;
    await ledger.defer(deliveryId, jobId, new Date(clock.now().getTime() + PUSH_DEFER_MS));
    metrics.send("deferred");
  }

  private async make(deliveryId: string, jobId: string, due: NonNullable<Awaited<ReturnType<PushLedger["due"]>>>): Promise<void> {
    const { ledger, send, metrics, log, clock } = this.deps;
    const now = clock.now();
    const base = { at: now, attempts: due.attempts, status: null, error: null };
    if (due.order.status !== "READY" || due.order.cleared) {
      await ledger.finish(deliveryId, jobId, "skipped", { ...base, error: `the order is ${due.order.cleared ? "cleared" : due.order.status}` });
      metrics.send("skipped");
      return;
    }
    const ttl = ttlSeconds(due.since, now);
    if (ttl <= 0) {
      await ledger.finish(deliveryId, jobId, "expired", { ...base, error: "past the 30-minute window" });
      metrics.send("expired");
      return;
    }
    const problem = endpointProblem(due.endpoint, this.deps.services);
    if (problem) {
      await ledger.finish(deliveryId, jobId, "gave_up", { ...base, error: problem });
      metrics.send("gave_up");
      return;
    }
    const payload = pushPayload({
      kind: due.kind,
      lang: due.lang,
      restaurant: due.tenant.name,
      slug: due.tenant.slug,
      orderId: due.order.id,
      prefix: due.order.prefix,
      number: due.order.number,
    });
    const answer = await send({ endpoint: due.endpoint, p256dh: due.p256dh, auth: due.auth, payload, ttl, topic: pushTopic(due.order.id) });
    const at = clock.now();
    const attempts = due.attempts + 1;
    const { outcome, nextAt } = pushOutcomeOf(answer, attempts, due.since, at);
    const error = outcome === "delivered" ? null : (answer.error ?? `the push service answered ${answer.status}`).slice(0, MAX_ERROR);
    const record = { at, attempts, status: answer.status, error };
    if (outcome === "gone") await ledger.gone(deliveryId, jobId, due.subscriptionId);
    else if (outcome === "retrying" && nextAt) await ledger.retry(deliveryId, jobId, { ...record, nextAt });
    else await ledger.finish(deliveryId, jobId, outcome === "retrying" ? "expired" : outcome, record);
    metrics.send(outcome);
    if (outcome !== "delivered")
      log.warn({ tenantId: due.tenantId, delivery: deliveryId, attempts, status: answer.status, err: error, outcome }, "push not delivered");
  }
}
