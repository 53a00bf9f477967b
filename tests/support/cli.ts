/**
 * A script of scripts/ run as the operator runs it with `npm run`, but spawned as
 * `node --import tsx scripts/X.ts` directly: npm would add its own banner lines to stdout.
 * The child sees PATH, HOME and `env` only; it is tracked so a test that dies kills it.
 */
import { spawn } from "node:child_process";
import { trackChild } from "./child-registry";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runScript(script: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = trackChild(
      spawn(process.execPath, ["--import", "tsx", script, ...args], {
        cwd: process.cwd(),
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } as unknown as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
