/**
 * A restaurant's share of a node's workers for work a restaurant can make slow (printers or
 * webhook endpoints that never answer): half of them, rounded up, so the others always have
 * the rest (decisions 0039, 0044). Counted per node, in memory: a scheduling rule of this
 * node's own workers, not a promise between nodes.
 */
export const tenantShare = (workers: number): number => Math.max(1, Math.ceil(workers / 2));
