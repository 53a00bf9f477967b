/**
 * The kitchen of a fault scenario's small wrapping series (decision 0027): while the burst
 * runs, every order of the series a client was told about is collected (READY, then
 * COLLECTED, through the node that took it), oldest first, so that at most `keepOpen` of
 * them stay open. Its numbers come round many times in one burst; an order no client heard
 * of (an answer lost to a fault) stays open, and the series skips its number.
 */
import type { AppServer } from "./app-server";
import type { LoadRecord } from "./load-runner";
import { sleep } from "./redis-process";
import type { TestTenant } from "./tenants";

export class SeriesCollector {
  private readonly queue: { id: string; node: number }[] = [];
  private readonly seen = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** Orders collected, and the moves the app refused after retries (a fault's doing: reported, not a violation). */
  collected = 0;
  readonly failures: string[] = [];

  constructor(
    private readonly apps: readonly AppServer[],
    private readonly tenant: TestTenant,
    private readonly opts: { keepOpen: number; concurrency: number },
  ) {}

  /** Feed of the load clients' records (LoadOptions.onRecord). */
  readonly onRecord = (r: LoadRecord): void => {
    if (r.status !== 201 || r.series === undefined || r.id === undefined || this.seen.has(r.id)) return;
    this.seen.add(r.id);
    this.queue.push({ id: r.id, node: r.node });
    this.pump();
  };

  private pump(): void {
    while (!this.stopped && this.queue.length > this.opts.keepOpen && this.inFlight.size < this.opts.concurrency) {
      const order = this.queue.shift()!;
      const p: Promise<void> = this.collect(order).finally(() => {
        this.inFlight.delete(p);
        this.pump();
      });
      this.inFlight.add(p);
    }
  }

  private async collect(order: { id: string; node: number }): Promise<void> {
    const app = this.apps[order.node] ?? this.apps[0]!;
    for (const status of ["READY", "COLLECTED"] as const) {
      // Asking again for a move that was made meanwhile is a no-op 200.
      for (let attempt = 1; ; attempt++) {
        const answer = await fetch(`${app.url}/api/v1/orgs/${this.tenant.slug}/orders/${order.id}/status`, {
          method: "POST",
          headers: { authorization: `Bearer ${this.tenant.apiKeys.kitchen}`, "content-type": "application/json" },
          body: JSON.stringify({ status }),
          signal: AbortSignal.timeout(10_000),
        }).then(
          async (res) => (res.ok ? null : `${res.status} ${(await res.text()).slice(0, 200)}`),
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );
        if (answer === null) break;
        if (attempt >= 5 || this.stopped) {
          this.failures.push(`${order.id} → ${status}: ${answer}`);
          return;
        }
        await sleep(200);
      }
    }
    this.collected++;
  }

  /** Stops collecting (what is under way finishes); the rest stays open. */
  async stop(): Promise<{ collected: number; leftOpen: number; failures: string[] }> {
    this.stopped = true;
    await Promise.all([...this.inFlight]);
    return { collected: this.collected, leftOpen: this.queue.length, failures: this.failures };
  }
}
