/**
 * A fake ESC/POS network printer for tests: a TCP server on 127.0.0.1 that answers the
 * DLE EOT 1/2/4 status requests at once (even mid-stream, as real printers do) with the
 * bytes of its mode, and records everything else a connection sent as one print job.
 * stop() closes the port (a printer switched off); start() reopens the same port.
 */
import net from "node:net";

/** `silent`: answers no status request (a node asking waits out its reply timeouts). */
export type StandInMode = "online" | "paperOut" | "coverOpen" | "silent";

const DLE = 0x10;
const EOT = 0x04;

/** Replies to DLE EOT 1 (printer), 2 (offline cause) and 4 (paper) in each mode (fixed bits 0x12 set). */
const REPLIES: Record<StandInMode, Record<number, number>> = {
  online: { 1: 0x12, 2: 0x12, 4: 0x12 },
  // offline (0x08); stopped at paper end (0x20); roll paper end (0x60)
  paperOut: { 1: 0x1a, 2: 0x32, 4: 0x72 },
  // offline (0x08); cover open (0x04)
  coverOpen: { 1: 0x1a, 2: 0x16, 4: 0x12 },
  silent: {},
};

export class PrinterStandIn {
  mode: StandInMode;
  private server: net.Server | null = null;
  private port: number;
  private readonly sockets = new Set<net.Socket>();
  private readonly received: Buffer[] = [];
  private queries = 0;
  private waiters: (() => void)[] = [];

  constructor(opts: { port?: number; mode?: StandInMode } = {}) {
    this.port = opts.port ?? 0;
    this.mode = opts.mode ?? "online";
  }

  get address(): { host: string; port: number } {
    return { host: "127.0.0.1", port: this.port };
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** Opens the port (the one it had before, after a stop()). */
  async start(): Promise<this> {
    if (this.server) return this;
    const server = net.createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => {
        server.removeListener("error", reject);
        resolve();
      });
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Closes the port and drops open connections: the printer is switched off. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** What each connection sent besides status requests, in the order the connections closed. */
  jobs(): Buffer[] {
    return [...this.received];
  }

  /** Connections open now. */
  openConnections(): number {
    return this.sockets.size;
  }

  /** Status requests (DLE EOT n) answered so far. */
  statusQueries(): number {
    return this.queries;
  }

  /** Resolves with the jobs once there are at least `n`; rejects after `timeoutMs`. */
  async waitForJobs(n: number, timeoutMs = 60_000): Promise<Buffer[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the printer stand-in received ${this.received.length} job(s), not ${n}, within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.jobs();
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    const job: number[] = [];
    /** Bytes of a DLE EOT request seen so far (a request may be split across packets). */
    let held: number[] = [];
    socket.on("data", (chunk: Buffer) => {
      for (const b of chunk) {
        if (held.length === 0) {
          if (b === DLE) held = [b];
          else job.push(b);
        } else if (held.length === 1) {
          if (b === EOT) held.push(b);
          else {
            job.push(DLE);
            held = b === DLE ? [b] : [];
            if (b !== DLE) job.push(b);
          }
        } else {
          held = [];
          this.queries++;
          const reply = REPLIES[this.mode][b];
          if (reply !== undefined) socket.write(Uint8Array.of(reply));
        }
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.sockets.delete(socket);
      job.push(...held);
      if (job.length > 0) {
        this.received.push(Buffer.from(job));
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w();
      }
    });
  }
}

/** A started stand-in on an OS-assigned port (or `port`). */
export const startPrinterStandIn = (opts: { port?: number; mode?: StandInMode } = {}): Promise<PrinterStandIn> => new PrinterStandIn(opts).start();
