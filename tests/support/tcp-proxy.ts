/**
 * A TCP proxy on 127.0.0.1 for network faults between the app and Redis (or PostgreSQL):
 *
 *  - `pointTo(port)`: new connections go to another upstream (failover). Existing ones
 *    stay where they are until they close or are cut.
 *  - `moveTo(port)`: pointTo and cutAll: the address moves, as PgBouncer/HAProxy or a DNS
 *    flip does after a failover.
 *  - `delayFromUpstreamMs` (start option): a link with a one-way delay: every byte from
 *    upstream, and its end, reaches the client that much later (bytes already sent when
 *    the upstream dies still arrive, as on a real wire).
 *  - `blackhole(true)`: a partition. Nothing is forwarded in either direction and
 *    nothing is closed: existing connections stall (the proxy stops reading, so TCP
 *    backpressure builds up as it would behind a dead link), new connections are
 *    accepted and then held without an upstream. `blackhole(false)` heals it like a
 *    network that comes back before TCP gives up: whatever was sent during the partition
 *    is delivered late, in order, and held connections are connected upstream then. No
 *    byte is ever dropped from the middle of a stream (that is not something TCP does).
 *  - `cutAll()`: destroys every connection (both sides), like a middlebox reset.
 *  - `close()`: stops listening and cuts everything.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { freeLowPort } from "./redis-process";

interface Pair {
  client: Socket;
  upstream: Socket | null;
  /** Bytes read from one side while blackholed, to deliver when healed. */
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private blackholed = false;
  private target: number;
  private server: Server | undefined;
  readonly events: { at: number; what: string }[] = [];
  /** Connections accepted so far (all time). */
  accepted = 0;

  private constructor(
    readonly port: number,
    target: number,
    readonly label: string,
    readonly delayFromUpstreamMs: number,
  ) {
    this.target = target;
  }

  static async start(target: number, opts: { port?: number; label?: string; delayFromUpstreamMs?: number } = {}): Promise<TcpProxy> {
    const port = opts.port ?? (await freeLowPort());
    const proxy = new TcpProxy(port, target, opts.label ?? `proxy:${port}`, opts.delayFromUpstreamMs ?? 0);
    await proxy.listen();
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get upstreamPort(): number {
    return this.target;
  }

  isBlackholed(): boolean {
    return this.blackholed;
  }

  /** Connections currently open (client side). */
  connectionCount(): number {
    return this.pairs.size;
  }

  private note(what: string): void {
    this.events.push({ at: Date.now(), what: `${this.label} ${what}` });
  }

  private listen(): Promise<void> {
    const server = createServer({ pauseOnConnect: true }, (client) => this.accept(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  }

  private accept(client: Socket): void {
    this.accepted++;
    client.setNoDelay(true);
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [] };
    this.pairs.add(pair);
    client.on("data", (d: Buffer) => {
      if (this.blackholed || !pair.upstream || pair.upstream.connecting) pair.toUpstream.push(d);
      else pair.upstream.write(d);
    });
    client.on("error", () => this.drop(pair));
    client.on("close", () => this.drop(pair));
    client.on("end", () => pair.upstream?.end());
    if (this.blackholed) {
      // Held: accepted (the client believes it is connected) but never forwarded.
      // Reading stays paused, so what it sends piles up in the kernel buffers.
      return;
    }
    this.connectUpstream(pair);
  }

  private connectUpstream(pair: Pair): void {
    const upstream = createConnection({ host: "127.0.0.1", port: this.target });
    upstream.setNoDelay(true);
    pair.upstream = upstream;
    upstream.on("connect", () => {
      if (this.blackholed) return; // flushed and resumed when healed
      this.flush(pair);
      pair.client.resume();
    });
    upstream.on("data", (d: Buffer) =>
      this.fromUpstream(() => {
        if (this.blackholed) pair.toClient.push(d);
        else if (!pair.client.destroyed) pair.client.write(d);
      }),
    );
    upstream.on("error", () => this.fromUpstream(() => this.drop(pair)));
    upstream.on("close", () => this.fromUpstream(() => this.drop(pair)));
    upstream.on("end", () => this.fromUpstream(() => pair.client.end()));
  }

  /** What upstream sent, after the link's delay (timers of one duration fire in order: bytes stay in order). */
  private fromUpstream(deliver: () => void): void {
    if (this.delayFromUpstreamMs > 0) setTimeout(deliver, this.delayFromUpstreamMs);
    else deliver();
  }

  private flush(pair: Pair): void {
    if (pair.upstream && !pair.upstream.destroyed) for (const b of pair.toUpstream.splice(0)) pair.upstream.write(b);
    if (!pair.client.destroyed) for (const b of pair.toClient.splice(0)) pair.client.write(b);
  }

  private drop(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream?.destroy();
  }

  /** New connections go to 127.0.0.1:`port`. */
  pointTo(port: number): void {
    this.target = port;
    this.note(`now points to ${port}`);
  }

  /** New connections go to 127.0.0.1:`port`, and every open one is cut. */
  moveTo(port: number): void {
    this.pointTo(port);
    this.cutAll();
  }

  /** Partition on/off (see the file comment). */
  blackhole(on: boolean): void {
    if (on === this.blackholed) return;
    this.blackholed = on;
    this.note(on ? "blackholed (partition)" : "healed");
    for (const pair of this.pairs) {
      if (on) {
        pair.client.pause();
        pair.upstream?.pause();
      } else if (!pair.upstream) {
        this.connectUpstream(pair);
      } else if (!pair.upstream.connecting) {
        this.flush(pair);
        pair.client.resume();
        pair.upstream.resume();
      } else {
        pair.upstream.resume(); // its "connect" handler flushes and resumes the client
      }
    }
  }

  /** Destroys every open connection, both sides. */
  cutAll(): void {
    const n = this.pairs.size;
    for (const pair of [...this.pairs]) this.drop(pair);
    this.note(`cut ${n} connections`);
  }

  async close(): Promise<void> {
    for (const pair of [...this.pairs]) this.drop(pair);
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
