/**
 * The Lua scripts, loaded once per client with ioredis `defineCommand` (EVALSHA with an
 * automatic EVAL fallback when Redis lost its script cache after a restart or failover).
 * File names follow `<name>-<numberOfKeys>.lua`, where `n` means the caller passes the
 * number of keys first; each file's header names its KEYS, ARGV and return value. A line
 * `--- @include "name"` is replaced by lua/includes/name.lua (what several scripts share),
 * or, for `reply-codes`, by the reply codes generated from lua/reply-codes.ts.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Cluster, Redis, Result, ClientContext } from "ioredis";
import { replyCodesLua, type FlagValue } from "./lua/reply-codes";

const LUA_DIR = fileURLToPath(new URL("./lua/", import.meta.url));

/** issue-numbers-n.lua's flat reply: integers and strings, per key in order; see its header. */
export type IssueNumbersReply = (number | string)[];

declare module "ioredis" {
  interface RedisCommander<Context extends ClientContext = { type: "default" }> {
    /** `numberOfKeys, ...counterKeys, nowMs, lowWater, leaseMs, ...(blockHint, today, expireAtMs, count) per key` */
    issueNumbers(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Result<IssueNumbersReply, Context>;
    /** install-block-1.lua: Flag.YES installed, Flag.NO refused. */
    installBlock(
      counterKey: string,
      day: string,
      shift: number,
      lo: number,
      hi: number,
      expireAtMs: number,
      mode: "add" | "restore",
    ): Result<FlagValue, Context>;
    /** burn-block-1.lua: Flag.YES burned, Flag.NO not the current block. */
    burnBlock(counterKey: string, day: string, shift: number, number: number, storedUpTo: number): Result<FlagValue, Context>;
    /** extend-lock-1.lua: Flag.YES extended, Flag.NO not held. */
    extendLock(lockKey: string, token: string, ttlMs: number): Result<FlagValue, Context>;
    /** release-lock-1.lua: Flag.YES released, Flag.NO not held. */
    releaseLock(lockKey: string, token: string): Result<FlagValue, Context>;
  }
}

const COMMAND_NAMES: Record<string, string> = {
  "issue-numbers": "issueNumbers",
  "install-block": "installBlock",
  "burn-block": "burnBlock",
  "extend-lock": "extendLock",
  "release-lock": "releaseLock",
};

export interface ScriptFile {
  command: string;
  /** Undefined: the caller passes it (`-n`). */
  numberOfKeys: number | undefined;
  lua: string;
}

let cache: ScriptFile[] | undefined;

/** Includes made from TypeScript, so both sides share one definition. */
const GENERATED_INCLUDES: Record<string, () => string> = { "reply-codes": replyCodesLua };

const withIncludes = (lua: string): string =>
  lua.replace(/^--- @include "([\w-]+)"$/gm, (_, name: string) => GENERATED_INCLUDES[name]?.() ?? readFileSync(`${LUA_DIR}includes/${name}.lua`, "utf8"));

/** Every script in lua/, as loaded into Redis (includes resolved). */
export function scriptFiles(): readonly ScriptFile[] {
  cache ??= readdirSync(LUA_DIR).flatMap((file) => {
    const m = /^(.+)-(\d+|n)\.lua$/.exec(file);
    if (!m) return [];
    const [, name, keys] = m as unknown as [string, string, string];
    const command = COMMAND_NAMES[name];
    if (!command) throw new Error(`lua/${file} has no command name in scripts.server.ts`);
    return [{ command, numberOfKeys: keys === "n" ? undefined : Number(keys), lua: withIncludes(readFileSync(LUA_DIR + file, "utf8")) }];
  });
  return cache;
}

/** Defines every script in lua/ on the client. Call once per client, before use. */
export function defineScripts(client: Redis | Cluster): void {
  for (const s of scriptFiles()) client.defineCommand(s.command, { numberOfKeys: s.numberOfKeys, lua: s.lua });
}

/**
 * Loads every script into Redis's script cache (on every master of a cluster), so the
 * first EVALSHA does not miss and resend the script: the first orders after a start or a
 * Redis restart are as fast as the rest.
 */
export async function preloadScripts(client: Redis | Cluster): Promise<void> {
  const targets: Redis[] = "nodes" in client && typeof client.nodes === "function" ? client.nodes("master") : [client as Redis];
  await Promise.all(targets.flatMap((node) => scriptFiles().map((s) => node.script("LOAD", s.lua))));
}
