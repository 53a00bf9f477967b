/**
 * A private `redis-server` (from PATH) for fault tests: no persistence, bound to
 * 127.0.0.1, on a port of its own that it keeps across restarts, so a test can kill -9
 * it, stop it, pause it (SIGSTOP) and bring it back EMPTY on the same port — or run it as
 * a replica of another one.
 *
 * Ports come from below the kernel's ephemeral range (< 32768): while the server is down
 * its port cannot be handed to some client socket as a source port, and Redis 7.0
 * refuses ports > 55535 for its cluster bus anyway.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { isRunning, killHard, trackChild } from "./child-registry";

const LOW_PORT = 20_000;
const HIGH_PORT = 32_000;

/** A port in [20000, 32000) that nothing listens on right now. */
export async function freeLowPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW_PORT + Math.floor(Math.random() * (HIGH_PORT - LOW_PORT));
    const ok = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.unref();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error("no free port below 32000 after 200 attempts");
}

/** PING over a raw socket: true only if `+PONG` arrives within `timeoutMs`. */
export function pingRaw(port: number, timeoutMs = 300): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: "127.0.0.1", port });
    let buf = "";
    const done = (ok: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once("error", () => done(false));
    sock.on("data", (d) => {
      buf += d.toString();
      if (buf.includes("\r\n")) done(buf.startsWith("+PONG"));
    });
    sock.once("connect", () => sock.write("*1\r\n$4\r\nPING\r\n"));
  });
}

export interface RedisProcessOptions {
  /** Port to use (default: a free one below 32000). Kept across restarts. */
  port?: number;
  /** Start as a replica of 127.0.0.1:<port>. */
  replicaOf?: number;
  /** For messages. */
  label?: string;
  /** Extra `--name value` arguments. */
  args?: string[];
}

export class RedisProcess {
  private proc: ChildProcess | undefined;
  private log = "";
  private paused = false;
  private readonly dir: string;
  /** Every start/stop/kill/pause, with Date.now(), for the report. */
  readonly events: { at: number; what: string }[] = [];

  private constructor(
    readonly port: number,
    private readonly opts: RedisProcessOptions,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), `nextup-redis-${port}-`));
  }

  /** Starts a new server and waits until it answers PING. */
  static async launch(opts: RedisProcessOptions = {}): Promise<RedisProcess> {
    const port = opts.port ?? (await freeLowPort());
    const r = new RedisProcess(port, opts);
    await r.start();
    return r;
  }

  get label(): string {
    return this.opts.label ?? `redis:${this.port}`;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** What the server printed (all its lives), for failure messages. */
  output(): string {
    return this.log;
  }

  private note(what: string): void {
    this.events.push({ at: Date.now(), what: `${this.label} ${what}` });
  }

  /** (Re)starts the server on its port — empty: nothing is ever saved. */
  async start(timeoutMs = 10_000): Promise<void> {
    if (this.proc && isRunning(this.proc)) throw new Error(`${this.label} is already running (pid ${this.proc.pid})`);
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      this.dir,
      "--daemonize",
      "no",
      "--protected-mode",
      "no",
      "--loglevel",
      "notice",
      ...(this.opts.replicaOf !== undefined ? ["--replicaof", "127.0.0.1", String(this.opts.replicaOf)] : []),
      ...(this.opts.args ?? []),
    ];
    const proc = trackChild(spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] }));
    this.proc = proc;
    this.paused = false;
    proc.stdout?.on("data", (d: Buffer) => (this.log += d.toString()));
    proc.stderr?.on("data", (d: Buffer) => (this.log += d.toString()));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!isRunning(proc)) throw new Error(`${this.label} exited at start (${proc.exitCode ?? proc.signalCode}):\n${this.log.slice(-3000)}`);
      if (await pingRaw(this.port, 200)) break;
      if (Date.now() > deadline) {
        await killHard(proc);
        throw new Error(`${this.label} did not answer PING within ${timeoutMs} ms:\n${this.log.slice(-3000)}`);
      }
      await sleep(25);
    }
    this.note(`started (pid ${proc.pid})`);
  }

  /** kill -9: the process vanishes with everything it held. */
  async kill9(): Promise<void> {
    if (!this.proc) return;
    await killHard(this.proc);
    this.paused = false;
    this.note("killed -9");
  }

  /** Graceful `SHUTDOWN NOSAVE`; falls back to SIGKILL after 5 s. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || !isRunning(proc)) return;
    if (this.paused) this.resume();
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    await this.command("SHUTDOWN", "NOSAVE").catch(() => {
      // The connection drops when the server exits: that is the expected answer.
    });
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    this.note("stopped (SHUTDOWN NOSAVE)");
  }

  /** SIGSTOP: the server keeps its sockets open but answers nothing. */
  pause(): void {
    if (!this.proc || !isRunning(this.proc)) throw new Error(`${this.label} is not running`);
    this.proc.kill("SIGSTOP");
    this.paused = true;
    this.note("paused (SIGSTOP)");
  }

  /** SIGCONT. */
  resume(): void {
    if (!this.proc || !isRunning(this.proc)) throw new Error(`${this.label} is not running`);
    this.proc.kill("SIGCONT");
    this.paused = false;
    this.note("resumed (SIGCONT)");
  }

  isPaused(): boolean {
    return this.paused;
  }

  /** Running, not paused, and answering PING. */
  async isUp(timeoutMs = 300): Promise<boolean> {
    if (!this.proc || !isRunning(this.proc)) return false;
    return pingRaw(this.port, timeoutMs);
  }

  /** One command on a short-lived connection (no retries, no offline queue). */
  async command(...args: (string | number)[]): Promise<unknown> {
    const client = new Redis({
      host: "127.0.0.1",
      port: this.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      commandTimeout: 5_000,
      retryStrategy: () => null,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      return await client.call(String(args[0]), ...args.slice(1).map(String));
    } finally {
      client.disconnect();
    }
  }

  /** A hash as an object (HGETALL). */
  async hgetall(key: string): Promise<Record<string, string>> {
    const flat = (await this.command("HGETALL", key)) as string[];
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
    return out;
  }

  /** `INFO replication` as key/value pairs. */
  async replicationInfo(): Promise<Record<string, string>> {
    const text = String(await this.command("INFO", "replication"));
    return Object.fromEntries(
      text
        .split(/\r?\n/)
        .filter((l) => l.includes(":"))
        .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1)]),
    );
  }

  /** Kills the process (even if paused) and removes its directory. Safe to call twice. */
  async cleanup(): Promise<void> {
    if (this.proc) await killHard(this.proc);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
