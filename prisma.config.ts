// Prisma 7 reads this file for schema and migrations paths. It does not load .env and
// `env()` throws when a variable is unset, so the datasource is added only when
// DATABASE_URL is present: `prisma generate` must work without a database.
import { defineConfig } from "prisma/config";

const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  ...(url ? { datasource: { url } } : {}),
});
