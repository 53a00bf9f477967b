/**
 * Every child process a fault test starts (redis-server, load clients) is registered here
 * so that nothing outlives the test file: `killAllChildren()` in afterAll, and a
 * synchronous SIGKILL of whatever is left when the worker process exits (a crashed or
 * timed-out test, a Ctrl-C). Only processes this module registered are ever signalled.
 */
import type { ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  const killSync = () => {
    for (const p of live) {
      try {
        // SIGKILL also ends a SIGSTOPped process.
        if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  process.once("exit", killSync);
}

/** Tracks `proc` until it exits. */
export function trackChild(proc: ChildProcess): ChildProcess {
  hookExit();
  live.add(proc);
  proc.once("exit", () => live.delete(proc));
  return proc;
}

export function isRunning(proc: ChildProcess): boolean {
  return proc.exitCode === null && proc.signalCode === null;
}

/** SIGKILLs `proc` (if still running) and resolves once it has exited. */
export async function killHard(proc: ChildProcess): Promise<void> {
  if (!isRunning(proc)) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGKILL");
  await exited;
}

/** SIGKILLs every tracked process that is still running and waits for them. */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...live].map((p) => killHard(p)));
}
