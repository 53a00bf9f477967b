/**
 * A tenant's counter hash as lua/issue-numbers-n.lua stores it, for tests that look into
 * Redis or play a replica that missed writes: the current block is (lo, max], and its own
 * field, named `day:shift:lo:max`, holds how many numbers it has left; a block in reserve
 * is (nlo, nhi].
 */
interface HashClient {
  hgetall(key: string): Promise<Record<string, string>>;
  hset(key: string, field: string, value: number): Promise<unknown>;
}

/** The current block's field name; undefined without a block. */
function blockField(hash: Record<string, string>): string | undefined {
  return Number(hash.max) > 0 ? `${hash.day}:${hash.shift}:${hash.lo}:${hash.max}` : undefined;
}

/** The last number the current block handed out (its start when none yet); undefined without a block. */
export function lastIssuedIn(hash: Record<string, string>): number | undefined {
  const field = blockField(hash);
  const left = field === undefined ? undefined : hash[field];
  return left === undefined ? undefined : Number(hash.max) - Number(left);
}

/** The end of the highest block the counter holds (its reserve's, when it has one); 0 without a block. */
function reservedUpTo(hash: Record<string, string>): number {
  return Math.max(Number(hash.max) || 0, Number(hash.nhi) || 0);
}

/**
 * Waits until the counter holds a block reserved after the call (reservedUpTo grows): the
 * database committed its ceiling moments ago. Returns that block's end, or undefined after
 * `timeoutMs` without one.
 */
export async function blockReserved(redis: Pick<HashClient, "hgetall">, key: string, timeoutMs: number): Promise<number | undefined> {
  const before = reservedUpTo(await redis.hgetall(key));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const upTo = reservedUpTo(await redis.hgetall(key));
    if (upTo > before) return upTo;
    await new Promise((r) => setTimeout(r, 2));
  }
  return undefined;
}

export async function lastIssued(redis: HashClient, key: string): Promise<number | undefined> {
  return lastIssuedIn(await redis.hgetall(key));
}

/** Turns the counter back so that the next number it hands out is `last + 1` (within its block). */
export async function rewindTo(redis: HashClient, key: string, last: number): Promise<void> {
  const hash = await redis.hgetall(key);
  const field = blockField(hash);
  if (field === undefined || last < Number(hash.lo)) {
    throw new Error(`counter ${key}: cannot rewind to ${last}, its block is ${JSON.stringify(hash)}`);
  }
  await redis.hset(key, field, Number(hash.max) - last);
}
