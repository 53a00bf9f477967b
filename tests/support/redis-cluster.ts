/**
 * A real Redis Cluster of three masters (no replicas) for tests: three `redis-server`
 * processes from PATH on free ports of 127.0.0.1, joined with `redis-cli --cluster
 * create`, each with its own cluster bus port (`--cluster-port`: Redis 7.0 refuses a
 * port above 55535 otherwise, its default bus being port + 10000). Nothing is persisted;
 * everything lives in one temporary folder.
 *
 * `stop()` kills the servers and removes the folder; so does the exit of the test process,
 * if a test never reached its `afterAll` — and a failed start cleans up after itself.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RedisNode } from "@/lib/server/env.server";
import { freePort } from "./ports";

const run = promisify(execFile);

export interface RedisCluster {
  /** The masters, e.g. for REDIS_CLUSTER_NODES or `createRedis(nodes, …)`. */
  nodes: RedisNode[];
  /** `127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`: the REDIS_CLUSTER_NODES value. */
  env: string;
  /** What the servers printed, for failure messages. */
  output(): string;
  /** Kills the servers (SIGKILL: nothing to save) and removes the folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Everything started and not yet stopped in this process, for the exit hook. */
const live = new Set<{ procs: ChildProcess[]; dir: string }>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    for (const c of live) {
      for (const p of c.procs) {
        try {
          if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
        } catch {
          // already gone
        }
      }
      rmSync(c.dir, { recursive: true, force: true });
    }
  });
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { timeout: 10_000 });
  return stdout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two distinct free ports: the client port and the cluster bus port. */
async function portPair(taken: Set<number>): Promise<[number, number]> {
  const pick = async () => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  return [await pick(), await pick()];
}

export async function startRedisCluster(opts: { masters?: number; timeoutMs?: number } = {}): Promise<RedisCluster> {
  const count = opts.masters ?? 3;
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const dir = mkdtempSync(join(tmpdir(), "nextup-cluster-"));
  const entry = { procs: [] as ChildProcess[], dir };
  hookExit();
  live.add(entry);
  let out = "";

  const stop = async () => {
    if (!live.has(entry)) return;
    await Promise.all(
      entry.procs.map(async (p) => {
        if (p.exitCode !== null || p.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => p.once("exit", () => resolve()));
        p.kill("SIGKILL");
        await exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
    live.delete(entry);
  };

  /** Starts one master; retries on other ports if one was taken in the meantime. */
  const launch = async (taken: Set<number>): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      const [port, bus] = await portPair(taken);
      const proc = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--cluster-port",
          String(bus),
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          join(dir, `nodes-${port}.conf`),
          "--cluster-node-timeout",
          "5000",
          "--save",
          "",
          "--appendonly",
          "no",
          "--bind",
          "127.0.0.1",
          "--protected-mode",
          "no",
          "--dir",
          dir,
          "--daemonize",
          "no",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      entry.procs.push(proc);
      proc.stdout?.on("data", (d: Buffer) => (out += `[${port}] ${d.toString()}`));
      proc.stderr?.on("data", (d: Buffer) => (out += `[${port}] ${d.toString()}`));
      for (;;) {
        if (proc.exitCode !== null || proc.signalCode !== null) break;
        const pong = await cli(port, "PING").catch(() => "");
        if (pong.trim() === "PONG") return port;
        if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer PING:\n${out.slice(-3000)}`);
        await sleep(25);
      }
      // Exited at start: most likely its port was taken between freePort() and bind.
      if (attempt >= 5) throw new Error(`redis-server exited at start five times:\n${out.slice(-3000)}`);
    }
  };

  try {
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await launch(taken));
    const nodes = ports.map((port) => ({ host: "127.0.0.1", port }));

    await run("redis-cli", ["--cluster", "create", ...nodes.map((n) => `${n.host}:${n.port}`), "--cluster-replicas", "0", "--cluster-yes"], {
      timeout: 20_000,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`redis-cli --cluster create failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}\n${out.slice(-3000)}`);
    });

    // Every node must see every slot served (cluster_state:ok) and know all masters.
    for (;;) {
      const infos = await Promise.all(ports.map((p) => cli(p, "CLUSTER", "INFO").catch(() => "")));
      const ok = infos.every((i) => /cluster_state:ok/.test(i) && new RegExp(`cluster_known_nodes:${count}\\b`).test(i));
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`cluster not ok in time:\n${infos.join("\n---\n")}\n${out.slice(-3000)}`);
      await sleep(50);
    }

    return { nodes, env: nodes.map((n) => `${n.host}:${n.port}`).join(","), output: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
