/**
 * The calls made in one turn of the event loop, sent to PostgreSQL together (decisions 0007
 * and 0020): `many` gets them as one batch, one statement; `one`, when given, gets a call
 * alone in its turn, for a single-row statement that is cheaper to plan. Nothing is cached:
 * every call reads or writes anew.
 */
import DataLoader from "dataloader";

export function turnBatcher<K, V>(opts: {
  many: (keys: readonly K[]) => Promise<(V | Error)[]>;
  one?: (key: K) => Promise<V>;
  maxBatchSize: number;
}): DataLoader<K, V> {
  const { many, one, maxBatchSize } = opts;
  return new DataLoader<K, V>((keys) => (one && keys.length === 1 ? one(keys[0]!).then((v) => [v]) : many(keys)), {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (send) => setImmediate(send),
  });
}
