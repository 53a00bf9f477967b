/**
 * A restaurant's share of a node's workers for work a restaurant can make slow (printers or
 * webhook endpoints that never answer): half of them, rounded up, so the others always have
 * the rest (decisions 0039, 0044). Counted per node, in memory: a scheduling rule of this
 * node's own workers, not a promise between nodes.
 */
export const tenantShare = (workers: number): number => Math.max(1, Math.ceil(workers / 2));

/** This node's work in flight per restaurant, held to a share (unset: no limit). */
export class TenantSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly perTenant: number = Infinity) {}

  /**
   * Runs `work` in one of `tenantId`'s slots; false, without running it, when all its slots
   * are taken (the caller defers the work).
   */
  async run(tenantId: string, work: () => Promise<void>): Promise<boolean> {
    const running = this.running.get(tenantId) ?? 0;
    if (running >= this.perTenant) return false;
    this.running.set(tenantId, running + 1);
    try {
      await work();
      return true;
    } finally {
      const left = (this.running.get(tenantId) ?? 1) - 1;
      if (left > 0) this.running.set(tenantId, left);
      else this.running.delete(tenantId);
    }
  }
}
