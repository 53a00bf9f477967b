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
    burnBlock(counterKey: string, day: string, shift: number, number: number): Result<0 | 1, Context>;
  }
}

const COMMAND_NAMES: Record<string, string> = {
  "issue-number": "issueNumber",
  "install-block": "installBlock",
  "burn-block": "burnBlock",
};

interface ScriptFile {
  command: string;
  numberOfKeys: number;
  lua: string;
}

let cache: ScriptFile[] | undefined;

function scriptFiles(): ScriptFile[] {
  cache ??= readdirSync(LUA_DIR).flatMap((file) => {
    const m = /^(.+)-(\d+)\.lua$/.exec(file);
    if (!m) return [];
    const [, name, keys] = m as unknown as [string, string, string];
    const command = COMMAND_NAMES[name];
    if (!command) throw new Error(`lua/${file} has no command name in scripts.server.ts`);
    return [{ command, numberOfKeys: Number(keys), lua: readFileSync(LUA_DIR + file, "utf8") }];
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
