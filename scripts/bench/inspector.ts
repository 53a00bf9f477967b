/**
 * A bench's view into a server started with `--inspect=127.0.0.1:<port>`: a full garbage
 * collection on demand, then the heap that survived it (the live set a leak would raise).
 * Through the Chrome DevTools Protocol, so the server needs no endpoint or flag of its own.
 */
import WebSocket from "ws";

export interface Inspector {
  /** Collects all garbage (HeapProfiler.collectGarbage) and returns the heap still used, bytes. */
  liveHeapBytes(): Promise<number>;
  close(): void;
}

export async function connectInspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  ws.on("message", (data: Buffer) => {
    const msg = JSON.parse(data.toString("utf8")) as { id?: number; result?: unknown; error?: { message: string } };
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w) return; // an event, not an answer
    waiting.delete(msg.id!);
    if (msg.error) w.reject(new Error(msg.error.message));
    else w.resolve(msg.result);
  });
  const call = <T>(method: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    async liveHeapBytes() {
      await call("HeapProfiler.collectGarbage");
      return (await call<{ usedSize: number }>("Runtime.getHeapUsage")).usedSize;
    },
    close: () => ws.close(),
  };
}
