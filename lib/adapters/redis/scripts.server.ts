/**
 * The Lua scripts, loaded once per client with ioredis `defineCommand` (EVALSHA with an
 * automatic EVAL fallback when Redis lost its script cache after a restart or failover).
 * File names follow `<name>-<numberOfKeys>.lua`; each file's header names its KEYS, ARGV
 * and return value.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Cluster, Redis, Result, ClientContext } from "ioredis";

const LUA_DIR = fileURLToPath(new URL("./lua/", import.meta.url));

/** issue-number-1.lua's reply; see its header. */
export type IssueNumberReply =
  | [1, string, number, number, 0 | 1]
  | [2, string, number, 0 | 1]
  | [0, 0 | 1];

declare module "ioredis" {
  interface RedisCommander<Context extends ClientContext = { type: "default" }> {
    issueNumber(
      counterKey: string,
      today: string,
      nowMs: number,
      expireAtMs: number,
      lowWater: number,
      leaseMs: number,
    ): Result<IssueNumberReply, Context>;
    installBlock(
      counterKey: string,
      day: string,
      shift: number,
      lo: number,
      hi: number,
      expireAtMs: number,
      mode: "add" | "restore",
    ): Result<0 | 1, Context>;
    burnBlock(counterKey: string, day: string, shift: number): Result<0 | 1, Context>;
  }
}

const COMMAND_NAMES: Record<string, string> = {
  "issue-number": "issueNumber",
  "install-block": "installBlock",
  "burn-block": "burnBlock",
};

/** Defines every script in lua/ on the client. Call once per client, before use. */
export function defineScripts(client: Redis | Cluster): void {
  for (const file of readdirSync(LUA_DIR)) {
    const m = /^(.+)-(\d+)\.lua$/.exec(file);
    if (!m) continue;
    const [, name, keys] = m as unknown as [string, string, string];
    const command = COMMAND_NAMES[name];
    if (!command) throw new Error(`lua/${file} has no command name in scripts.server.ts`);
    client.defineCommand(command, { numberOfKeys: Number(keys), lua: readFileSync(LUA_DIR + file, "utf8") });
  }
}
