/**
 * The real Caddy with deploy/Caddyfile in front of local app nodes, where `caddy` is on
 * PATH (Debian: `apt-get install caddy`): the file is copied with the nodes' addresses for
 * `app1:3000 app2:3000`, its health listener on a free port, the admin API off, and an
 * `x-upstream` answer header naming the serving node's port (as tests/support/reverse-proxy.ts
 * does). Everything else is the file as deployed.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports";
import type { ReverseProxy } from "./reverse-proxy";

export const caddyOnPath = spawnSync("sh", ["-c", "command -v caddy"], { stdio: "ignore" }).status === 0;

export async function startCaddy(upstreams: string[]): Promise<ReverseProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), "nextup-caddy-"));
  const [port, healthPort] = [await freePort(), await freePort()];
  const deployed = readFileSync("deploy/Caddyfile", "utf8");
  const config = deployed
    .replace("app1:3000 app2:3000", upstreams.map((u) => new URL(u).host).join(" "))
    .replace("http://:2020", `http://:${healthPort}`)
    .replace(/^\{\n/m, "{\n\tadmin off\n")
    .replace(/(\n\t\thealth_uri )/, "\n\t\theader_down X-Upstream {http.reverse_proxy.upstream.port}$1");
  if (!config.includes("admin off") || !config.includes("X-Upstream") || config === deployed)
    throw new Error("deploy/Caddyfile changed shape: update tests/support/caddy.ts");
  writeFileSync(path.join(dir, "Caddyfile"), config);
  const proc = spawn("caddy", ["run", "--config", path.join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, SITE_ADDRESS: `:${port}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${healthPort}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (proc.exitCode !== null || i > 100) {
      proc.kill("SIGKILL");
      throw new Error(`caddy did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    kind: "caddy",
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async close() {
      proc.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
