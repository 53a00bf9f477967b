/**
 * What the core needs from the outside world, one file per group. Adapters (lib/adapters/*,
 * and lib/server for the caches, logs and metrics) implement these; the core never imports
 * an adapter. Records a port hands over that the core also uses elsewhere (Order, Tenant,
 * ShiftInfo, AuditEntry…) live with their rules in lib/core; what a port alone carries lives here.
 */
export * from "./unavailable";
export * from "./observability";
export * from "./clock";
export * from "./counter";
export * from "./orders";
export * from "./shifts";
export * from "./realtime";
export * from "./cache-invalidator";
export * from "./settings";
export * from "./access";
export * from "./menu";
export * from "./audit";
export * from "./reports";
export * from "./webhooks";
export * from "./series";
export * from "./replication";
export * from "./printing";
export * from "./backups";
export * from "./staff";
export * from "./push";
export * from "./waits";
export * from "./stations";
