/**
 * On a Node.js outside `engines.node`, every entry point a user runs stops at once: exit 1
 * and the one sentence of scripts/require-node.mjs on stderr, nothing else. Run on a real
 * older Node.js (OLD_NODE, else /usr/bin/node when it is outside the range).
 *
 * The npm scripts run as npm runs them where the pinned node-<platform> package is missing
 * (Apple-silicon macOS, `npm ci --omit=optional`): their command line from package.json in
 * `sh -c`, with the older `node` first on the PATH, then node_modules/.bin. The bare
 * `node --import tsx server.ts` is how systemd, the Docker image and the tests start it.
 * No DATABASE_URL or SESSION_SECRET on purpose: the refusal must come before the server's
 * own checks (which would otherwise say "Invalid environment").
 */
import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { accepts, parseRange, refusal } from "../../scripts/require-node.mjs";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; scripts: Record<string, string> };
const range = parseRange(pkg.engines.node)!;

function versionOf(node: string): string | null {
  if (!existsSync(node)) return null;
  return /v(\S+)/.exec(spawnSync(node, ["-v"], { encoding: "utf8" }).stdout ?? "")?.[1] ?? null;
}

const candidate = process.env.OLD_NODE ?? "/usr/bin/node";
const oldVersion = versionOf(candidate);
const oldNode = oldVersion && !accepts(range, oldVersion) ? candidate : null;
const skipReason = oldNode ? "" : `: skipped, no Node.js outside ${pkg.engines.node} at ${candidate} (found ${oldVersion ?? "none"}); set OLD_NODE`;

/** A folder whose only file is `node`, the older one: first on the PATH, it is the `node` npm scripts find. */
const binDir = mkdtempSync(path.join(tmpdir(), "nextup-old-node-"));
if (oldNode) symlinkSync(oldNode, path.join(binDir, "node"));
afterAll(() => rmSync(binDir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Runs a command in its own process group, and kills the group however the test ends. */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child: ChildProcessByStdio<null, Readable, Readable> = spawn(command, args, {
      cwd: process.cwd(),
      env: {
        PATH: [binDir, path.resolve("node_modules/.bin"), process.env.PATH ?? ""].join(path.delimiter),
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    if (child.pid !== undefined) children.push(child.pid);
  });
}
const children: number[] = [];
afterAll(() => {
  for (const pid of children) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

describe.skipIf(!oldNode)(`on Node.js ${oldVersion} (outside ${pkg.engines.node})${skipReason}`, () => {
  const expected = () => refusal(range, oldVersion!) + "\n";

  it.each(["start", "dev", "org", "db:migrate", "db:new-migration"])("npm run %s exits 1 with the one sentence", async (script) => {
    const result = await run("sh", ["-c", pkg.scripts[script] ?? "false"]);
    expect(result).toEqual({ code: 1, stdout: "", stderr: expected() });
  });

  it("node --import tsx server.ts (systemd, the Docker image, the tests) exits 1 with the one sentence", async () => {
    const result = await run(oldNode!, ["--import", "tsx", "server.ts"]);
    expect(result).toEqual({ code: 1, stdout: "", stderr: expected() });
  });

  it("the sentence names the range from package.json", () => {
    expect(expected()).toContain(`found ${oldVersion}`);
    expect(expected()).toContain(range[0]!.text);
  });
});
