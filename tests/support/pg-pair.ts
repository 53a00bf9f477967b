/**
 * A PostgreSQL primary and a streaming standby of a fault test's own, from the PostgreSQL
 * installed on the machine (initdb, postgres, pg_basebackup; as the `postgres` OS user when
 * the tests run as root, which initdb refuses to be). The app database is created and
 * migrated on the primary, then the standby is cloned (`pg_basebackup -R`) through a link
 * that delays every byte from the primary by `linkDelayMs` (tests/support/tcp-proxy.ts) and
 * streams through it; `synchronous` makes it a synchronous standby. The app reaches the
 * database through `front`, one address the test moves to the promoted standby.
 * `close()` (also the database's `drop()`) stops both servers and deletes their folders;
 * the servers are tracked in child-registry, so nothing outlives a failed test.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { isRunning, killHard, trackChild } from "./child-registry";
import { createTestDatabase, type TestDatabase } from "./db";
import { freeLowPort, sleep } from "./redis-process";
import { TcpProxy } from "./tcp-proxy";

/** The installed PostgreSQL's programs: PG_BIN_DIR, else the newest /usr/lib/postgresql/<version>/bin (Debian), else `pg_config --bindir`. */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "pg_basebackup"))) : [];
  if (versions.length) return join(debian, versions.sort((a, b) => Number(b) - Number(a))[0]!, "bin");
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const dir = fromConfig.status === 0 ? fromConfig.stdout.trim() : "";
  if (dir && existsSync(join(dir, "pg_basebackup"))) return dir;
  throw new Error("No PostgreSQL server programs (initdb, postgres, pg_basebackup) found: install PostgreSQL (Debian: postgresql) or set PG_BIN_DIR.");
}

type ServerUser = { uid: number; gid: number } | undefined;

/** uid/gid of the `postgres` OS user when running as root (PostgreSQL refuses root), else nothing to switch. */
function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const [uid, gid] = [id("-u"), id("-g")];
  if (uid.status !== 0 || gid.status !== 0) throw new Error("Running as root, and there is no `postgres` OS user to run PostgreSQL as.");
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Settings of both servers (on the command line: pg_basebackup copies no config file the tests wrote). */
const SETTINGS = {
  listen_addresses: "127.0.0.1",
  unix_socket_directories: "",
  wal_level: "replica",
  max_wal_senders: "5",
  wal_keep_size: "256MB",
  hot_standby: "on",
  // A standby whose primary went away retries after this long; the default 5 s can hold up its promotion as long.
  wal_retrieve_retry_interval: "100ms",
  // The crash is a process's, not the machine's: the page cache survives it.
  fsync: "off",
  shared_buffers: "32MB",
  max_connections: "100",
};

/** One query on its own connection (the servers come and go: no pool to keep). */
async function query<T extends object>(port: number, sql: string): Promise<T[]> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres", connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts one of PostgreSQL's programs as the server's user, tracked, keeping what it prints. */
function spawnProgram(program: string, args: string[], user: ServerUser, home: string): { proc: ChildProcess; output: () => string } {
  const env = { PATH: process.env.PATH ?? "", HOME: home, LC_ALL: "C.UTF-8", NODE_ENV: "production" } as const;
  const proc = trackChild(spawn(join(binDir(), program), args, { ...user, env, stdio: ["ignore", "pipe", "pipe"] }));
  let out = "";
  const keep = (d: Buffer) => (out += d.toString());
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  return { proc, output: () => out };
}

/** Runs one of PostgreSQL's programs to its end; rejects with what it printed. */
function run(program: string, args: string[], user: ServerUser, home: string): Promise<void> {
  const { proc, output } = spawnProgram(program, args, user, home);
  return new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited with ${code}:\n${output().slice(-3000)}`))));
  });
}

/** One PostgreSQL server process on a data folder of its own. */
class PgServer {
  private server: ReturnType<typeof spawnProgram> | undefined;

  constructor(
    readonly label: string,
    readonly dir: string,
    readonly port: number,
    private readonly user: ServerUser,
  ) {}

  get adminUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** What the server printed (its log goes to stderr), for failure messages. */
  output(): string {
    return this.server?.output() ?? "";
  }

  /** Starts `postgres` itself (not pg_ctl), so the tracked child is the postmaster; waits until it answers. */
  async start(settings: Record<string, string>): Promise<void> {
    const args = ["-D", this.dir, "-p", String(this.port), ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
    this.server = spawnProgram("postgres", args, this.user, this.dir);
    const { proc } = this.server;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (!isRunning(proc)) throw new Error(`${this.label} exited while starting:\n${this.output().slice(-3000)}`);
      const answers = await query(this.port, "SELECT 1").then(
        () => true,
        () => false,
      );
      if (answers) return;
      if (Date.now() > deadline) throw new Error(`${this.label} did not answer within 30 s:\n${this.output().slice(-3000)}`);
      await sleep(100);
    }
  }

  query<T extends object>(sql: string): Promise<T[]> {
    return query<T>(this.port, sql);
  }

  /** Stops it with `signal` (SIGQUIT: immediate, a crash; SIGINT: fast shutdown), SIGKILL after 10 s. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const proc = this.server?.proc;
    if (!proc || !isRunning(proc)) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => void killHard(proc), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export interface PgPairOptions {
  /** For the database's name and messages. */
  label: string;
  /** One-way delay of the replication link (bytes from the primary to the standby), in ms. */
  linkDelayMs: number;
  /** synchronous_standby_names = '*' on the primary: a commit waits until the standby has it. */
  synchronous: boolean;
}

export class PgPair {
  /** The app database, reached through `front`; its drop() closes the pair. */
  readonly database: TestDatabase;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly base: string,
    readonly primary: PgServer,
    readonly standby: PgServer,
    /** The standby's way to the primary, delaying what the primary sends. */
    readonly link: TcpProxy,
    /** The app's one address for the database: `front.moveTo(pair.standby.port)` after the promotion. */
    readonly front: TcpProxy,
    db: TestDatabase,
  ) {
    const url = new URL(db.url);
    url.port = String(front.port);
    this.database = { url: url.toString(), name: db.name, drop: () => this.close() };
  }

  static async start(opts: PgPairOptions): Promise<PgPair> {
    const user = serverUser();
    const base = mkdtempSync(join(tmpdir(), "nextup-pgpair-"));
    if (user) chownSync(base, user.uid, user.gid);
    const primary = new PgServer("primary", join(base, "primary"), await freeLowPort(), user);
    const standby = new PgServer("standby", join(base, "standby"), await freeLowPort(), user);
    const proxies: TcpProxy[] = [];
    try {
      await run(
        "initdb",
        ["-D", primary.dir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"],
        user,
        base,
      );
      // Trust from 127.0.0.1, replication included (written over initdb's file, which keeps its owner).
      writeFileSync(join(primary.dir, "pg_hba.conf"), "host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n");
      await primary.start(SETTINGS);
      // Created and migrated before the clone: the standby starts with it.
      const db = await createTestDatabase(`pg_${opts.label}`, primary.adminUrl);
      const link = await TcpProxy.start(primary.port, { label: "replication link", delayFromUpstreamMs: opts.linkDelayMs });
      proxies.push(link);
      // -R: standby.signal and a primary_conninfo that points at the link.
      await run(
        "pg_basebackup",
        ["-h", "127.0.0.1", "-p", String(link.port), "-U", "postgres", "-D", standby.dir, "-R", "-X", "stream", "-c", "fast", "--no-sync"],
        user,
        base,
      );
      await standby.start(SETTINGS);
      if (opts.synchronous) {
        // Only now, and only on the primary: without a standby every commit would wait, and a promoted standby has none.
        await primary.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
        await primary.query("SELECT pg_reload_conf()");
      }
      await waitForStandby(primary, opts.synchronous);
      const front = await TcpProxy.start(primary.port, { label: "database address" });
      proxies.push(front);
      return new PgPair(base, primary, standby, link, front, db);
    } catch (e) {
      const logs = `primary log:\n${primary.output().slice(-1500)}\nstandby log:\n${standby.output().slice(-1500)}`;
      await shutDown(base, [primary, standby], proxies).catch(() => {});
      throw new Error(`could not start the PostgreSQL pair: ${e instanceof Error ? e.message : String(e)}\n${logs}`, { cause: e });
    }
  }

  /**
   * Immediate stop of the primary (the signal `pg_ctl stop -m immediate` sends), and the link
   * goes down with it: what it held never reaches the standby, which therefore misses the last
   * `linkDelayMs` of writes whatever the timing of its promotion (it would replay late bytes
   * while the promotion is pending).
   */
  async crashPrimary(): Promise<void> {
    this.link.cutAll();
    await this.primary.stop("SIGQUIT");
  }

  /** Promotes the standby (pg_promote, what `pg_ctl promote` asks) and waits until it takes writes; returns how long that took, in ms. */
  async promoteStandby(): Promise<number> {
    const t0 = Date.now();
    await this.standby.query("SELECT pg_promote(true, 30)");
    while ((await this.standby.query<{ r: boolean }>("SELECT pg_is_in_recovery() AS r"))[0]!.r) {
      if (Date.now() - t0 > 30_000) throw new Error(`standby still in recovery 30 s after pg_promote:\n${this.standby.output().slice(-2000)}`);
      await sleep(20);
    }
    return Date.now() - t0;
  }

  /** WAL the primary has written that the standby has not yet confirmed stored, in bytes (null: no standby connected). */
  async lagBytes(): Promise<number | null> {
    const rows = await this.primary.query<{ lag: number | null }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), flush_lsn)::float8 AS lag FROM pg_stat_replication",
    );
    return rows[0]?.lag ?? null;
  }

  /** Stops the proxies and both servers and deletes their folders. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= shutDown(this.base, [this.primary, this.standby], [this.front, this.link]);
    return this.closing;
  }
}

async function shutDown(base: string, servers: PgServer[], proxies: TcpProxy[]): Promise<void> {
  await Promise.all(proxies.map((p) => p.close()));
  await Promise.all(servers.map((s) => s.stop("SIGINT")));
  rmSync(base, { recursive: true, force: true });
}

/** Waits until the primary sees the standby streaming, as a synchronous standby when asked. */
async function waitForStandby(primary: PgServer, synchronous: boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await primary.query<{ state: string; sync_state: string }>("SELECT state, sync_state FROM pg_stat_replication");
    if (rows.some((r) => r.state === "streaming" && (!synchronous || r.sync_state === "sync"))) return;
    if (Date.now() > deadline)
      throw new Error(`the standby is not streaming${synchronous ? " as a synchronous standby" : ""} after 30 s: ${JSON.stringify(rows)}`);
    await sleep(100);
  }
}
