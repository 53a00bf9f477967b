/**
 * The Socket.IO server: joins each client to its tenant's board room and implements the
 * core's EventPublisher. Across app nodes, @socket.io/redis-adapter relays broadcasts.
 */
import type { IncomingMessage, Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Cluster, Redis } from "ioredis";
import type { EventPublisher, Logger } from "@/lib/core/ports";
import { slugSchema, type Tenant } from "@/lib/core/tenants";
import { boardRoom, type ClientToServerEvents, type ServerToClientEvents } from "./events";

/** What the handshake stores on a socket: the tenant whose board room it joins. */
interface SocketData {
  tenantId: string;
}

/** Between nodes (server-side events over the Redis adapter); whoever listens checks the payload. */
export interface InterServerEvents {
  /** Render these voice clips ahead (lib/adapters/voice/voice-ahead.server.ts). */
  "voice:ahead": (message: unknown) => void;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketDeps {
  findTenant(slug: string): Promise<Tenant | null>;
  log: Logger;
  /** The production build this node serves (.next/BUILD_ID), told to every screen on connect; null in development. */
  build?: string | null;
  /** Runs the rest of a handshake inside a log context (its request id and slug); default: as is. */
  withLogContext?: (handshake: { requestId: string | undefined; slug: string }, next: () => void) => void;
  /** Redis pub/sub pair for the adapter; omitted in single-node tests. */
  pubsub?: { pub: Redis | Cluster; sub: Redis | Cluster; channelPrefix: string };
  /** Per client address, before the restaurant is looked up (omitted: no limits). */
  limits?: {
    /** The client's address (the TCP peer, or what a trusted proxy forwarded). */
    addressOf(req: IncomingMessage): string;
    /** Open connections one address may hold on this node. */
    connectionsPerAddress: number;
    /** Spends one of the address's handshakes: null when allowed, else the seconds to wait. */
    handshake(address: string): Promise<number | null>;
  };
}

/** Open connections per address on this node: an entry exists only while one is open. */
class AddressCounts {
  private readonly counts = new Map<string, number>();
  get(address: string): number {
    return this.counts.get(address) ?? 0;
  }
  add(address: string): void {
    this.counts.set(address, this.get(address) + 1);
  }
  remove(address: string): void {
    const n = this.get(address) - 1;
    if (n <= 0) this.counts.delete(address);
    else this.counts.set(address, n);
  }
}

export function createSocketServer(http: HttpServer, deps: SocketDeps): IoServer {
  if (deps.pubsub) {
    // The adapter publishes without handling a failure; while Redis is down that would be
    // one unhandled rejection per broadcast. A lost broadcast is not lost state: boards
    // and kitchen screens resync from the API when they reconnect.
    const pub = deps.pubsub.pub;
    const publish = pub.publish.bind<(channel: string, message: string | Buffer) => Promise<number>>(pub);
    let warned = false;
    (pub as { publish: typeof publish }).publish = (channel, message) =>
      publish(channel, message).then(
        (n) => ((warned = false), n),
        (e: unknown) => {
          if (!warned) deps.log.warn({ err: e instanceof Error ? e.message : String(e) }, "broadcasts are not reaching other nodes (Redis unavailable)");
          warned = true;
          return 0;
        },
      );
  }

  const limits = deps.limits;
  const open = new AddressCounts();
  const io: IoServer = new Server(http, {
    serveClient: false,
    // Heartbeats: a screen whose connection died silently (Wi-Fi, a sleeping TV) knows
    // within about 15 s and shows it is offline, instead of Socket.IO's default 45 s.
    pingInterval: 10_000,
    pingTimeout: 5_000,
    cors: { origin: false },
    // Clients only listen: no message of theirs needs more than a handshake's few bytes, so
    // a socket cannot be made to buffer megabytes (Engine.IO's default is 1 MB a message).
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    // A connection that joined no restaurant (its handshake was refused) is closed after
    // this, rather than Socket.IO's 45 s: it still counts against its address until then.
    connectTimeout: 10_000,
    // Twice the limit is a flood, not a screen: refused before a connection is even made
    // (up to the limit and a little over, the handshake below refuses with a clear message).
    ...(limits
      ? {
          allowRequest: (req: IncomingMessage, fn: (err: string | null | undefined, ok: boolean) => void) =>
            fn(null, open.get(limits.addressOf(req)) < 2 * limits.connectionsPerAddress),
        }
      : {}),
    ...(deps.pubsub ? { adapter: createAdapter(deps.pubsub.pub, deps.pubsub.sub, { key: deps.pubsub.channelPrefix }) } : {}),
  });

  const withLogContext = deps.withLogContext;
  if (withLogContext) {
    // First: the middlewares after this one run inside the context.
    io.use((socket, next) => {
      const { org } = socket.handshake.query;
      const requestId = socket.handshake.headers["x-request-id"];
      withLogContext({ requestId: typeof requestId === "string" ? requestId : undefined, slug: typeof org === "string" ? org : "" }, () => next());
    });
  }

  if (limits) {
    // Every Engine.IO connection counts until it closes, whatever its handshake's outcome.
    // Its address is read once, from the request that opened it (a polling request's own
    // socket may be gone by the time the handshake runs).
    const addresses = new WeakMap<object, string>();
    io.engine.on("connection", (raw: { request: IncomingMessage; once(event: "close", fn: () => void): void }) => {
      const address = limits.addressOf(raw.request);
      addresses.set(raw, address);
      open.add(address);
      raw.once("close", () => open.remove(address));
    });
    // Limits first, before anything is looked up: too many open connections or handshakes
    // from one address get a connect_error saying so (the screens retry after a pause).
    io.use((socket, next) => {
      const address = addresses.get(socket.conn) ?? "unknown";
      if (open.get(address) > limits.connectionsPerAddress) return next(new Error("Too many connections from this address"));
      limits.handshake(address).then(
        (retryAfter) => next(retryAfter === null ? undefined : new Error(`Too many connection attempts from this address: retry in ${retryAfter} s`)),
        (e: unknown) => {
          deps.log.warn({ err: e }, "socket handshake limit unavailable");
          next(new Error("Service unavailable, retrying"));
        },
      );
    });
  }

  // Resolve the tenant during the handshake: an unknown slug gets a connect_error the
  // browser can show, instead of a silent socket that never receives anything.
  io.use((socket, next) => {
    const org = socket.handshake.query.org;
    const slug = typeof org === "string" ? org : "";
    (slug ? deps.findTenant(slug) : Promise.resolve(null)).then(
      (tenant) => {
        // Echo the name only when it is one (not 12 KB or control characters back to the sender).
        if (!tenant) return next(new Error(slugSchema.safeParse(slug).success ? `Unknown restaurant "${slug}"` : "Unknown restaurant"));
        socket.data.tenantId = tenant.id;
        next();
      },
      (e: unknown) => {
        deps.log.warn({ err: e, slug }, "socket handshake failed");
        next(new Error("Service unavailable, retrying"));
      },
    );
  });

  io.on("connection", (socket) => {
    void socket.join(boardRoom(socket.data.tenantId));
    if (deps.build) socket.emit("server:build", deps.build);
    // Sockets are read-only (events.ts): a client that sends an event is not one of ours.
    socket.onAny(() => socket.disconnect(true));
  });
  return io;
}

/** The largest message a client may send (its handshake); anything larger closes the connection. */
export const MAX_CLIENT_MESSAGE_BYTES = 1_024;

export class SocketPublisher implements EventPublisher {
  constructor(
    private readonly io: IoServer,
    private readonly log: Logger,
  ) {}

  private emit<E extends keyof ServerToClientEvents>(
    tenant: Pick<Tenant, "id" | "slug"> | Pick<Tenant, "id">,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ) {
    try {
      // A broadcast that cannot reach Redis must not fail the order: the boards resync
      // from the API when they reconnect.
      this.io.to(boardRoom(tenant.id)).emit(event, ...args);
    } catch (e) {
      this.log.warn({ err: e, tenant: "slug" in tenant ? tenant.slug : tenant.id, event }, "broadcast failed");
    }
  }

  orderCreated(tenant: Tenant, order: Parameters<ServerToClientEvents["order:created"]>[0]) {
    this.emit(tenant, "order:created", order);
  }
  orderUpdated(tenant: Tenant, order: Parameters<ServerToClientEvents["order:updated"]>[0]) {
    this.emit(tenant, "order:updated", order);
  }
  orderCalled(tenant: Tenant, order: Parameters<ServerToClientEvents["order:called"]>[0]) {
    this.emit(tenant, "order:called", order);
  }
  shiftStarted(tenant: Tenant, shift: Parameters<ServerToClientEvents["shift:started"]>[0]) {
    this.emit(tenant, "shift:started", shift);
  }
  settingsChanged(tenant: Tenant) {
    this.emit(tenant, "settings:changed");
  }
  menuChanged(tenant: Tenant) {
    this.emit(tenant, "menu:changed");
  }
  printersChanged(tenant: Pick<Tenant, "id">) {
    this.emit(tenant, "printer:changed");
  }
}
