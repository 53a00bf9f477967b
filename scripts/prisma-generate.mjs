#!/usr/bin/env node
// Runs `prisma generate` on machines that cannot download Prisma's native schema engine
// (offline machines, closed CI). `generate` never executes that engine, but the CLI
// insists on a file being present; pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing
// file satisfies the check. Never use this trick for `migrate deploy` (it then reports
// success and applies nothing): migrations go through `npm run db:migrate`.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
