/**
 * Scheduled backups (decision 0049): on every node with backups on, a timer; the first node
 * to claim the current period's slot (a unique row: one node per slot, no lease involved)
 * writes the backup, records how it ended and removes the files beyond the ones to keep.
 * Every node keeps the latest state for /api/health and the console.
 */
import type { BackupFiles, BackupMetrics, BackupRunRecord, BackupRunStore, Clock, Logger } from "../ports";
import { BACKUP_STALE_MS, backupSlot, type BackupState } from "./backup-schedule";

export interface BackupSchedulerDeps {
  store: BackupRunStore;
  files: BackupFiles;
  metrics: BackupMetrics;
  log: Logger;
  clock: Clock;
  /** This node's name, recorded on the runs it makes. */
  node: string;
  everyMinutes: number;
  keep: number;
  /** Where the files go, as the operator named it (shown, never parsed). */
  dir: string;
  /** How often a node looks (default 30 s). */
  pollMs?: number;
}

const MAX_ERROR = 300;

export class BackupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private latest: BackupRunRecord | null = null;
  private lastOk: BackupRunRecord | null = null;
  private keptCount = 0;
  private read = false;

  constructor(private readonly deps: BackupSchedulerDeps) {}

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.deps.pollMs ?? 30_000);
    this.timer.unref();
  }

  /** Stops looking; a backup being written finishes on its own (or is reported as not finished later). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look: refresh the state; if the period's backup is not made and this node claims it, make it. Returns when done. */
  tick(): Promise<void> {
    this.ticking ??= this.look().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async look(): Promise<void> {
    const { store, log, clock, node } = this.deps;
    try {
      await this.refresh();
      if (this.running) return;
      const slot = backupSlot(clock.now(), this.deps.everyMinutes);
      if (this.latest && this.latest.slot.getTime() >= slot.getTime()) return;
      if (!(await store.claim(slot, node))) return;
      this.running = this.run(slot).finally(() => (this.running = null));
      await this.running;
    } catch (e) {
      log.warn({ err: e instanceof Error ? e.message : String(e) }, "scheduled backups: could not look at the last run");
    }
  }

  private async run(slot: Date): Promise<void> {
    const { store, files, metrics, log, clock, node } = this.deps;
    let end: Parameters<BackupRunStore["finish"]>[2];
    try {
      // A write that never ends (a folder on a stalled network mount) fails the run after one period, so the next is tried.
      const limitMs = this.deps.everyMinutes * 60_000;
      let timer: NodeJS.Timeout | undefined;
      const made = await Promise.race([
        files.write(slot),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not finished after ${this.deps.everyMinutes} minutes`)), limitMs);
          timer.unref();
        }),
      ]).finally(() => clearTimeout(timer));
      end = { ok: true, ...made };
      log.info({ file: made.file, bytes: made.bytes, orders: made.orders }, "scheduled backup written");
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, MAX_ERROR);
      end = { ok: false, error };
      log.error({ err: error, slot: slot.toISOString() }, "scheduled backup failed");
    }
    metrics.run(end.ok ? "ok" : "failed", clock.now());
    await store.finish(slot, node, end);
    if (end.ok) await this.prune();
    await this.refresh();
  }

  /** Removes the files beyond the newest `keep` successful ones (only files this app recorded). */
  private async prune(): Promise<void> {
    const { store, files, log } = this.deps;
    const kept = await store.kept();
    for (const old of kept.slice(this.deps.keep)) {
      try {
        await files.remove(old.file);
        await store.markDeleted(old.slot);
      } catch (e) {
        log.warn({ err: e instanceof Error ? e.message : String(e), file: old.file }, "scheduled backups: could not remove an old backup");
      }
    }
  }

  private async refresh(): Promise<void> {
    const { latest, lastOk, kept } = await this.deps.store.summary();
    this.latest = latest;
    this.lastOk = lastOk;
    this.keptCount = kept;
    this.read = true;
  }

  /** What health and the console say (no I/O: the state of the last look). */
  state(): BackupState {
    const { clock } = this.deps;
    // The folder the backups are in: the last good one's (any node may have made it), else this node's setting.
    const file = this.lastOk?.file;
    const dir = file && file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : this.deps.dir;
    const latest = this.latest;
    const lastOk = this.lastOk?.finishedAt ?? null;
    if (!this.read || !latest) return { state: "none" };
    if (latest.ok === null) {
      if (clock.now().getTime() - latest.startedAt.getTime() < BACKUP_STALE_MS) return { state: "running", since: latest.startedAt, lastOk };
      return { state: "failed", at: latest.startedAt, error: "did not finish (its node stopped)", lastOk, kept: this.keptCount, dir };
    }
    if (latest.ok) return { state: "ok", at: latest.finishedAt ?? latest.startedAt, lastOk: lastOk ?? latest.startedAt, kept: this.keptCount, dir };
    return { state: "failed", at: latest.finishedAt ?? latest.startedAt, error: latest.error ?? "failed", lastOk, kept: this.keptCount, dir };
  }
}
