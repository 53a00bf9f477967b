/** Gathers what the start banner prints (lib/server/ops/start-banner.ts) and writes it to stderr. */
import { networkInterfaces } from "node:os";
import path from "node:path";
import type { App } from "@/lib/server/app.server";
import { lanAddress } from "@/lib/server/http/public-origin.server";
import { redactUrl } from "@/lib/server/ops/logger.server";
import { boxOrigins, LISTED_RESTAURANTS, startBanner, type StartBannerInput } from "./start-banner";

export interface StartFacts {
  dev: boolean;
  /** The port the server listens on. */
  port: number;
  dataDir: string;
  /** The session secret is the one kept in the data folder. */
  keptSecret: boolean;
  /** Redis is a private redis-server this server started. */
  privateRedis: boolean;
  /** The demo restaurant exists outside development and still signs in with the README's codes. */
  demoCodesWork: boolean;
}

export async function printStartBanner(app: App, facts: StartFacts): Promise<void> {
  process.stderr.write(startBanner(await startBannerInput(app, facts)));
}

async function startBannerInput(app: App, { dev, port, dataDir, keptSecret, privateRedis, demoCodesWork }: StartFacts): Promise<StartBannerInput> {
  const env = app.env;
  const pgDir = path.resolve(env.EMBEDDED_PG_DIR);
  const [restaurants, total] = await Promise.all([
    app.db.tenant.findMany({ select: { slug: true, name: true }, orderBy: { slug: "asc" }, take: LISTED_RESTAURANTS }),
    app.db.tenant.count(),
  ]);
  const lan = lanAddress();
  const lanOrigin = lan ? `http://${lan}${port === 80 ? "" : `:${port}`}` : null;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const where = env.EMBEDDED ? (path.relative(process.cwd(), pgDir) === ".data/postgres" ? "" : `EMBEDDED_PG_DIR=${pgDir} `) : "DATABASE_URL=… ";
  return {
    mode: dev ? "development" : env.EMBEDDED ? "one box" : "production",
    database: env.EMBEDDED ? `embedded PostgreSQL in ${pgDir} (port ${env.EMBEDDED_PG_PORT}); the data folder is ${dataDir}` : redactUrl(env.DATABASE_URL),
    redis: env.REDIS_CLUSTER_NODES
      ? `cluster ${env.REDIS_CLUSTER_NODES.map((n) => `${n.host}:${n.port}`).join(",")}`
      : `${redactUrl(env.REDIS_URL)}${privateRedis ? ` (a private redis-server started with this server, in ${path.join(dataDir, "redis")})` : ""}`,
    secret: keptSecret ? `secret kept in ${path.join(dataDir, "session-secret")} (owner only)` : "SESSION_SECRET from the environment",
    backups: env.BACKUP_DIR
      ? `every ${env.BACKUP_EVERY_MINUTES} min into ${path.resolve(env.BACKUP_DIR)}, the last ${env.BACKUP_KEEP} kept (copy them off this machine)`
      : "off: set BACKUP_DIR, or back up with npm run backup",
    tickets: env.PUBLIC_URL
      ? `QR codes link to ${env.PUBLIC_URL} (PUBLIC_URL)`
      : dev
        ? `QR codes link to ${lanOrigin ?? "the address the kiosk uses"} (this machine's network address; set PUBLIC_URL to choose)`
        : env.EMBEDDED
          ? `QR codes link to the address the kiosk uses${lanOrigin ? ` (${lanOrigin} when the kiosk runs on this machine)` : ""}; set PUBLIC_URL to choose`
          : "QR codes link to the address the kiosk uses; set PUBLIC_URL to choose",
    origins: boxOrigins(env.HOST, port, networkInterfaces()),
    restaurants,
    total,
    createCommand: `${where}npm run org -- create my-restaurant --name "My Restaurant" --timezone ${zone}`,
    demoCodesWork,
  };
}
