/**
 * The Lua scripts, loaded once per client with ioredis `defineCommand` (EVALSHA with an
 * automatic EVAL fallback when Redis lost its script cache after a restart or failover).
 * File names follow `<name>-<numberOfKeys>.lua`.
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Cluster, Redis, Result, ClientContext } from "ioredis";

const LUA_DIR = fileURLToPath(new URL("./lua/", import.meta.url));

/** [day, shift, number] as the script returns it. */
export type IssueNumberReply = [string, number, number] | null;

declare module "ioredis" {
  interface RedisCommander<Context extends ClientContext = { type: "default" }> {
    issueNumber(counterKey: string, today: string, expireAtMs: number): Result<IssueNumberReply, Context>;
    advanceCounter(
      counterKey: string,
      day: string,
      shift: number,
      last: number,
      expireAtMs: number,
    ): Result<0 | 1, Context>;
  }
}

const COMMAND_NAMES: Record<string, string> = {
  "issue-number": "issueNumber",
  "advance-counter": "advanceCounter",
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
