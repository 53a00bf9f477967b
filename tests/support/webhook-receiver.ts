/**
 * A webhook receiver for tests: node:http on 127.0.0.1, recording every request and
 * answering with the status `respond` chooses (per request, knowing earlier ones).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedHook {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this request was answered with. */
  status: number;
}

/** The status to answer, given the message id, its earlier attempts and this request's body. */
export type Responder = (id: string, earlier: ReceivedHook[], body: string) => number;

export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    public respond: Responder,
  ) {}

  static async start(respond: Responder = () => 204): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const self = new WebhookReceiver(server, `http://127.0.0.1:${port}/hooks`, respond);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const id = String(req.headers["webhook-id"] ?? "");
        const body = Buffer.concat(chunks).toString("utf8");
        const status = self.respond(
          id,
          self.received.filter((r) => r.id === id),
          body,
        );
        self.received.push({ id, headers: req.headers, body, status });
        res.writeHead(status).end();
        self.check();
      });
    });
    return self;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Requests answered 2xx. */
  accepted(): ReceivedHook[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  /** Resolves once `pred` holds; rejects after `timeoutMs` (only bounds a failing test). */
  until(pred: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `receiver: ${what} not within ${timeoutMs} ms; received ${JSON.stringify(this.received.map((r) => [r.id, r.status, r.body.slice(0, 80)]))}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ pred, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred()) return true;
      w.resolve();
      return false;
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
