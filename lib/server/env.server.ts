/**
 * The environment, validated once at start-up. A wrong or missing variable stops the
 * server with a message naming it. With no DATABASE_URL, development and production alike
 * run on embedded defaults (embedded PostgreSQL, local or private Redis, a session secret
 * kept in the data folder): production so is "one box" (decision 0047).
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { parsePushServices } from "@/lib/core/push/push-services";
import { z } from "zod";
import { linkLocalEntryProblem } from "@/lib/core/webhooks/destination";
import { parsePrinterNetworks, parsePrinterPorts, type PortRule } from "@/lib/core/printing/printer-network";
import { parseTrustProxy } from "./http/client-address.server";

/** A yes/no variable; exported (envFlag) for the CLIs, which read one variable, not the server's whole environment. */
/** The host part of a URL's authority (after any user:password@), as written. */
const hostsOf = (url: string): string => {
  const authority = url.replace(/^[^/]*\/\//, "").split(/[/?#]/)[0] ?? "";
  return authority.slice(authority.lastIndexOf("@") + 1);
};
const bool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

/** One `host:port` of REDIS_CLUSTER_NODES; an IPv6 host goes in brackets (`[::1]:7000`). */
export interface RedisNode {
  host: string;
  port: number;
}

const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)):(\d{1,5})$/;

/** `host:port,host:port,…` (spaces around commas allowed); each bad entry is named. */
const clusterNodes = z.string().transform((value, ctx): RedisNode[] => {
  const entries = value.split(",").map((e) => e.trim());
  const nodes: RedisNode[] = [];
  for (const entry of entries) {
    const m = HOST_PORT.exec(entry);
    const port = m ? Number(m[3]) : NaN;
    if (!m || port < 1 || port > 65535) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not host:port (a comma-separated list such as "10.0.0.1:7000,10.0.0.2:7000")` });
      continue;
    }
    nodes.push({ host: m[1] ?? m[2]!, port });
  }
  return nodes;
});

/** An http(s) origin such as "https://queue.example.com" (a trailing slash is dropped). */
const publicUrl = z.string().transform((value, ctx): string => {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/" || url.search || url.hash || url.username) {
    ctx.addIssue({ code: "custom", message: `"${value}" is not an http(s) origin such as "https://queue.example.com" (no path)` });
    return z.NEVER;
  }
  return url.origin;
});

/** `169.254.7.20,169.254.8.0/24`: addresses and ranges of 169.254.0.0/16 (spaces around commas allowed); each bad entry is named. */
const linkLocalList = z.string().transform((value, ctx): string[] => {
  const entries = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const problem = linkLocalEntryProblem(entry);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }
  return entries;
});

/** Where printers may be in development when PRINTER_NETWORKS is unset: the private IPv4 ranges. */
export const DEV_PRINTER_NETWORKS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"];

/** PRINTER_NETWORKS: where printers may be (decision 0029); unset: no network printing. */
const printerNetworks = z
  .string()
  .optional()
  .transform((value, ctx): string[] => {
    const r = parsePrinterNetworks(value);
    if ("error" in r) ctx.addIssue({ code: "custom", message: r.error });
    return "networks" in r ? r.networks : [];
  });

/** PRINTER_PORTS: the ports printers may listen on (default 9100). */
const printerPorts = z
  .string()
  .optional()
  .transform((value, ctx): PortRule[] => {
    const r = parsePrinterPorts(value);
    if ("error" in r) ctx.addIssue({ code: "custom", message: r.error });
    return "ports" in r ? r.ports : [];
  });

export { bool as envFlag };

/** Where the embedded PostgreSQL lives when DATABASE_URL is unset; its parent folder is the data folder (session secret, private Redis, backups). Exported for the CLIs, which reach the same database. */
export const embeddedPostgresEnv = z.object({
  EMBEDDED_PG_DIR: z.string().min(1).default(".data/postgres"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
});

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      // node-postgres and Prisma read one host: a promoted primary is found through one address that moves (decision 0028).
      .refine((url) => !hostsOf(url).includes(","), {
        message:
          "must name one host: several hosts (host1,host2…?target_session_attrs=read-write) are not supported; put PgBouncer, HAProxy or your provider's endpoint in front (README: PostgreSQL high availability)",
      })
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .default("redis://127.0.0.1:6379"),
    /**
     * Redis Cluster seed nodes, `host:port,host:port,…`. When set, the app connects to the
     * cluster (ioredis Cluster) and REDIS_URL is ignored.
     */
    REDIS_CLUSTER_NODES: clusterNodes.optional(),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]*$/, "may contain letters, digits, ':', '_' and '-' only")
      .default("nextup:"),
    /** Start a private redis-server from PATH when none answers at REDIS_URL (default: on with the embedded PostgreSQL or in development). */
    REDIS_AUTOSTART: bool.optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Log lines as JSON (default in production) or pretty, readable lines (default in development; needs the dev dependency pino-pretty). */
    LOG_FORMAT: z.enum(["json", "pretty"], { error: 'must be "json" or "pretty"' }).optional(),
    /** Whether GET /api/ready answers 503 while Redis is unreachable (false: numbers come from PostgreSQL and the node stays in rotation). */
    READY_REQUIRES_REDIS: bool.default(false),
    /** A Redis counter call slower than this falls back to PostgreSQL (ms). */
    COUNTER_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(300),
    /** While Redis is failing, probe it again after this long (ms). */
    COUNTER_PROBE_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
    /** Bearer token for GET /api/metrics (Prometheus); unset: the endpoint answers 404. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** API requests per key per minute before 429. */
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    ...embeddedPostgresEnv.shape,
    /** Create the demo tenant on start (default: on in development without DATABASE_URL). */
    DEMO_TENANT: bool.optional(),
    /**
     * Where customers' phones reach this server: the origin printed on tickets (link and QR
     * code). Unset: the machine's LAN address in development, the request's origin in production.
     */
    PUBLIC_URL: publicUrl.optional(),
    /**
     * Proxies whose X-Forwarded-For is believed: unset (none: the TCP peer is the client), a hop
     * count such as 1, or addresses/CIDRs/loopback, comma-separated.
     */
    TRUST_PROXY: z
      .string()
      .refine((v) => {
        try {
          parseTrustProxy(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be "false", a hop count, or addresses/CIDRs such as "loopback,10.0.0.0/8"')
      .optional(),
    /** After SIGTERM/SIGINT, keep serving this long with /api/ready at 503, so a load balancer moves traffic away before the node stops accepting (ms). */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    /**
     * Scheduled backups' folder (decision 0049). Unset: off, except on the embedded database
     * (no DATABASE_URL), where they go to .data/backups. The leader writes them; with several
     * nodes, a folder they share.
     */
    BACKUP_DIR: z.string().min(1).optional(),
    /** A scheduled backup every this many minutes (aligned to the clock: 60 makes one each hour on the hour). */
    BACKUP_EVERY_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
    /** How many scheduled backups to keep; older ones this app wrote are removed. */
    BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(48),
    /** Apply pending migrations at start-up (default: on). */
    MIGRATE_ON_START: bool.default(true),
    /** The board's offline fallback voice (eSpeak NG, GPL, in a child process; decision 0008): on | off. */
    VOICE_FALLBACK: z
      .enum(["on", "off"], { error: 'must be "on" or "off"' })
      .default("on")
      .transform((v) => v === "on"),
    /** Voice clips a client address may have rendered per minute (clips already cached are free). */
    VOICE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Failed authentications (bad API keys, wrong sign-in codes) per client address per minute; then 429 before any lookup. */
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** argon2 checks of one restaurant's role running at once on a node (a flood's CPU, never a lock-out). */
    SIGN_IN_CHECKS_PER_ROLE: z.coerce.number().int().min(1).default(4),
    /** Requests per client address per minute to the public board and customer pages and the board API. */
    PUBLIC_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    /** GET /api/health and /api/ready per client address per second on one node (a load balancer asks every few seconds). */
    PROBE_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).default(20),
    /** Open Socket.IO connections per client address on one node. */
    SOCKET_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
    /** Socket.IO handshakes per client address per minute, across nodes. */
    SOCKET_HANDSHAKES_PER_MINUTE: z.coerce.number().int().min(1).default(300),
    /** Server actions per staff session per minute (a kiosk in a rush sends ~12 orders and a few reads). */
    STAFF_ACTIONS_PER_MINUTE: z.coerce.number().int().min(1).default(240),
    /** Server actions per client address per minute (every till of a restaurant behind one NAT address counts here). */
    STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    /** Reprints of one order within a day of its first. */
    REPRINTS_PER_ORDER: z.coerce.number().int().min(1).default(5),
    /** Reprints on one printer per minute. */
    REPRINTS_PER_PRINTER_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Scheduled shifts (decision 0010) on this node: on | off. Off: the node never leads. */
    SCHEDULER: z
      .enum(["on", "off"], { error: 'must be "on" or "off"' })
      .default("on")
      .transform((v) => v === "on"),
    /** The scheduler's leader lock lives this long without renewal: a dead leader is replaced within it (ms). */
    SCHEDULER_LOCK_TTL_MS: z.coerce.number().int().min(1_000).max(60_000).default(10_000),
    /** A slot missed while no node ran still starts its shift this long after its time (minutes). */
    SCHEDULE_GRACE_MINUTES: z.coerce.number().int().min(0).max(720).default(30),
    /** Webhooks may go to loopback, private, IPv6 link-local, unique-local and CGNAT addresses (a restaurant's own LAN), and over plain http; never to cloud metadata. */
    WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
    /**
     * Addresses and ranges of 169.254.0.0/16 webhooks may reach under WEBHOOKS_ALLOW_PRIVATE
     * (that range is where clouds run metadata services, so it stays refused but for these).
     */
    WEBHOOKS_ALLOW_LINK_LOCAL: linkLocalList.optional(),
    /** The first webhook retry's delay (ms); each later one doubles it, plus up to 10 % jitter (15 attempts: 22.75–25.03 h with the default). */
    WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(5_000),
    /** One webhook attempt's timeout (ms), connection to response headers. */
    WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Networks (CIDRs) network printers may be in, e.g. 192.168.0.0/16; unset: none can be added. */
    PRINTER_NETWORKS: printerNetworks,
    /** Ports network printers may listen on: ports and ranges, default 9100. */
    PRINTER_PORTS: printerPorts,
    /** plain: a restaurant reads "the printer did not answer" for every failure (the detail is in the log); detailed: the detail (one restaurant per server). */
    PRINTER_ERRORS: z.enum(["plain", "detailed"]).default("plain"),
    /** allow: several restaurants may add printers at one host:port; unset: an address belongs to the first restaurant to add it. */
    PRINTER_SHARED_ADDRESSES: z.enum(["allow"]).optional(),
    /** Printers one restaurant may have (decision 0039). */
    PRINTERS_PER_RESTAURANT: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Print jobs one restaurant may have waiting; beyond it a test page or reprint is refused and an order is taken without its ticket (decision 0039). */
    PRINT_JOBS_WAITING_PER_RESTAURANT: z.coerce.number().int().min(1).max(1_000_000).default(200),
    /**
     * Web Push's contact (VAPID `sub`, decision 0053): `mailto:ops@example.com` or an https URL,
     * never a local host. Unset: push is off. Invalid: push is off, and the start-up log says why.
     */
    PUSH_CONTACT: z.string().max(500).optional(),
    /** Origins push subscriptions may point to besides the browsers' push services (comma-separated; tests, private services). */
    PUSH_SERVICES: z
      .string()
      .optional()
      .transform((value, ctx): string[] => {
        const r = parsePushServices(value);
        if ("error" in r) ctx.addIssue({ code: "custom", message: r.error });
        return "origins" in r ? r.origins : [];
      }),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production") {
      // Without DATABASE_URL production runs on one box and keeps its secret in the data folder (decision 0047).
      if (env.DATABASE_URL && !env.SESSION_SECRET)
        ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production with DATABASE_URL" });
    }
    if (env.WEBHOOKS_ALLOW_LINK_LOCAL?.length && !env.WEBHOOKS_ALLOW_PRIVATE)
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOKS_ALLOW_LINK_LOCAL"],
        message: "needs WEBHOOKS_ALLOW_PRIVATE=true (without it no private address is allowed)",
      });
  });

export type Env = z.output<typeof schema> & {
  SESSION_SECRET: string;
  /** No DATABASE_URL was given: the embedded PostgreSQL serves (development, or production on one box). */
  EMBEDDED: boolean;
};

/** The data folder of the embedded services: EMBEDDED_PG_DIR's parent (`.data` by default). */
export const dataDirOf = (env: Pick<Env, "EMBEDDED_PG_DIR">): string => path.dirname(path.resolve(env.EMBEDDED_PG_DIR));

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses `source` (process.env by default); throws EnvError naming every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings (e.g. `FOO=` in a compose file) count as unset.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`));
  }
  const env = result.data;
  // `npm run dev` on a restaurant's LAN: its printers are on a private network.
  const printerNetworks = env.NODE_ENV === "development" && cleaned.PRINTER_NETWORKS === undefined ? DEV_PRINTER_NETWORKS : env.PRINTER_NETWORKS;
  // Development may run without a secret: sessions then last until the server restarts.
  return {
    ...env,
    EMBEDDED: !env.DATABASE_URL,
    PRINTER_NETWORKS: printerNetworks,
    SESSION_SECRET: env.SESSION_SECRET ?? randomBytes(32).toString("hex"),
  };
}
