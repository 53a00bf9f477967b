/**
 * The primary's replication settings, standbys and history (the core's DatabaseFacts,
 * decision 0028). Each part is read on its own: a managed service may refuse one of them to
 * the app's role, which then reads as null ("unknown"), not as an error.
 */
import type pg from "pg";
import type { DatabaseFacts } from "@/lib/core/ports";
import type { DatabaseHistory, ReplicationFacts } from "@/lib/core/replication";

export class PgDatabaseFacts implements DatabaseFacts {
  constructor(private readonly pool: pg.Pool) {}

  async read(): Promise<ReplicationFacts> {
    // The settings are readable by every role; a failure here is the database being away.
    const { rows } = await this.pool.query<{ names: string; commit: string }>(
      `SELECT current_setting('synchronous_standby_names') AS names, current_setting('synchronous_commit') AS commit`,
    );
    const [standbys, history] = await Promise.all([this.standbys(), this.history()]);
    return { synchronousStandbyNames: rows[0]!.names, synchronousCommit: rows[0]!.commit, standbys, history };
  }

  private async standbys(): Promise<number | null> {
    try {
      const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_replication`);
      return rows[0]!.n;
    } catch {
      return null;
    }
  }

  /** The system identifier, and the timeline of the WAL being written (it changes at promotion, unlike the last checkpoint's). */
  private async history(): Promise<DatabaseHistory | null> {
    try {
      const { rows } = await this.pool.query<{ systemId: string; timeline: number }>(
        `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS "systemId",
                ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int AS timeline`,
      );
      const r = rows[0];
      return r?.systemId ? { systemId: r.systemId, timeline: r.timeline } : null;
    } catch {
      return null;
    }
  }
}
