/**
 * The project's own eslint.config.mjs, run on code held in memory as if it sat at a given
 * path: each layering rule reports an upward import and lets a legal one through.
 * Type-aware rules are off here (the files do not exist for the type checker).
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
});

/** The errors ESLint reports for `code` placed at `path`, as "rule: message". */
async function errors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId ?? "fatal"}: ${m.message}`);
}

const PATHS = "import/no-restricted-paths";
const IMPORTS = "no-restricted-imports";
const CLIENT = "nextup/no-server-import-in-client";

describe("lib/core imports nothing above it and no framework or driver", () => {
  it.each([
    ["a driver", 'import { Redis } from "ioredis";\nexport const r = Redis;', IMPORTS],
    ["a framework", 'import { headers } from "next/headers";\nexport const h = headers;', IMPORTS],
    ["Prisma", 'import { PrismaClient } from "@prisma/client";\nexport const p = PrismaClient;', IMPORTS],
    ["a Node built-in that does I/O", 'import { readFileSync } from "node:fs";\nexport const f = readFileSync;', IMPORTS],
    ["the wiring, by alias", 'import { getApp } from "@/lib/server/app-context";\nexport const g = getApp;', PATHS],
    ["an adapter, by relative path", 'import { RedisCounter } from "../adapters/redis/counter.server";\nexport const c = RedisCounter;', PATHS],
    ["lib/auth", 'import { roleAllows } from "@/lib/auth/roles";\nexport const a = roleAllows;', PATHS],
  ])("refuses %s", async (_what, code, rule) => {
    const found = await errors("/lib/core/probe.ts", code);
    expect(found).toEqual([expect.stringMatching(new RegExp(`^${rule}: `))]);
  });

  it("lets zod, ipaddr.js, node:crypto and the core's own modules through", async () => {
    const code = [
      'import { randomUUID } from "node:crypto";',
      'import { z } from "zod";',
      'import ipaddr from "ipaddr.js";',
      'import { AppError } from "./errors";',
      'import { isUuid } from "@/lib/core/ids";',
      "export const all = [randomUUID, z, ipaddr, AppError, isUuid];",
    ].join("\n");
    expect(await errors("/lib/core/probe.ts", code)).toEqual([]);
  });
});

describe("nothing imports upward", () => {
  it.each([
    ["/lib/adapters/redis/probe.ts", "@/lib/server/env.server", "loadEnv"],
    ["/lib/adapters/redis/probe.ts", "@/lib/edges/http/api.server", "api"],
    ["/lib/auth/probe.ts", "@/lib/adapters/postgres/prisma.server", "createPrisma"],
    ["/lib/server/probe.ts", "@/lib/edges/http/api.server", "api"],
    ["/lib/server/probe.ts", "@/lib/i18n/messages", "messagesFor"],
    ["/lib/server/probe.ts", "@/app/_lib/format", "formatTime"],
    ["/lib/edges/http/probe.ts", "@/app/_lib/format", "formatTime"],
    ["/lib/i18n/probe.ts", "@/app/_lib/format", "formatTime"],
    ["/lib/server/http/probe.ts", "@/lib/server/dev/demo.server", "ensureDemoTenant"],
    ["/lib/server/probe.ts", "@/lib/server/dev/dev-services.server", "startPrivateRedis"],
    ["/app/probe/page.tsx", "@/lib/server/dev/demo-banner", "demoBanner"],
  ])("%s may not import %s", async (path, source, name) => {
    const found = await errors(path, `import { ${name} } from "${source}";\nexport const x = ${name};`);
    expect(found).toEqual([expect.stringMatching(new RegExp(`^${PATHS}: `))]);
  });

  it.each([
    ["/lib/adapters/redis/probe.ts", "@/lib/core/errors", "AppError"],
    ["/lib/server/probe.ts", "@/lib/adapters/redis/counter.server", "RedisCounter"],
    ["/lib/server/probe.ts", "@/lib/auth/roles", "roleAllows"],
    ["/lib/edges/http/probe.ts", "@/lib/server/app-context", "getApp"],
    ["/lib/i18n/probe.ts", "@/lib/server/app-context", "getApp"],
    ["/app/probe/page.tsx", "@/lib/edges/http/api.server", "api"],
    ["/lib/server/dev/probe.ts", "@/lib/server/ops/provisioning.server", "createTenant"],
    ["/lib/server/dev/probe.ts", "@/lib/server/dev/demo-banner", "demoBanner"],
    ["/server.ts", "@/lib/server/dev/dev-services.server", "startPrivateRedis"],
  ])("%s may import %s", async (path, source, name) => {
    expect(await errors(path, `import { ${name} } from "${source}";\nexport const x = ${name};`)).toEqual([]);
  });
});

describe('a "use client" file imports no server module', () => {
  const client = (imports: string) => `"use client";\n${imports}\nexport const x = [A];\n`;

  it.each([
    ["a *.server module", 'import { A } from "@/lib/auth/access.server";'],
    ["a relative *.server module", 'import { A } from "./manager-data.server";'],
    ["a driver", 'import A from "ioredis";'],
    ["Next's server API", 'import { headers as A } from "next/headers";'],
    ["a Node built-in", 'import A from "node:fs";'],
  ])("refuses %s", async (_what, imports) => {
    const found = await errors("/app/[tenant]/manager/probe.tsx", client(imports));
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^${CLIENT}: `)));
  });

  it("allows type-only imports of server modules and client-safe modules", async () => {
    const code = [
      '"use client";',
      'import type { Caller } from "@/lib/auth/access.server";',
      'import { type ManagerData } from "./manager-data.server";',
      'import { useState } from "react";',
      'import { formatTime } from "@/app/_lib/format";',
      "export const x: [Caller?, ManagerData?] = [];",
      "export const y = [useState, formatTime];",
    ].join("\n");
    expect(await errors("/app/[tenant]/manager/probe.tsx", code)).toEqual([]);
  });

  it("leaves server components alone", async () => {
    const code = 'import { A } from "@/lib/auth/access.server";\nexport const x = A;';
    expect(await errors("/app/[tenant]/manager/probe.tsx", code)).toEqual([]);
  });
});
