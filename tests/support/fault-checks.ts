/**
 * The promise of issue #3 as checks over what the clients saw (LoadRecords) and what
 * PostgreSQL holds (the Order table, read directly). Each check returns readable lines
 * and a list of violations; a test asserts `violations` is empty and prints the report.
 *
 *  - no two distinct orders hold the same (businessDay, shift, number) among 201 answers;
 *  - at least 99.5 % of orders answered 201 (after at most one retry with the same key);
 *  - every 201 order is stored, with the number the client was told; no stored order
 *    that no client saw, except for orders whose request failed on the client side
 *    (no HTTP answer for an attempt: the server may have stored it after the client gave
 *    up);
 *  - skipped numbers per shift (max − count of stored numbers, numbers start at 1)
 *    ≤ 50 × faults injected (0 without a fault);
 *  - latency is recorded and printed, never asserted.
 */
import pg from "pg";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import type { LoadRecord } from "./load-runner";

export const MIN_ACCEPTANCE = 0.995;

export interface StoredOrder {
  id: string;
  businessDay: string;
  shift: number;
  number: number;
  idempotencyKey: string | null;
}

/** Every order of `tenantId`, straight from the Order table. */
export async function loadStoredOrders(databaseUrl: string, tenantId: string): Promise<StoredOrder[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; day: string; shift: number; number: number; idempotencyKey: string | null }>(
      `SELECT id, to_char("businessDay", 'YYYY-MM-DD') AS day, shift, number, "idempotencyKey" FROM "Order" WHERE "tenantId" = $1`,
      [tenantId],
    );
    return rows.map((r) => ({ id: r.id, businessDay: r.day, shift: r.shift, number: r.number, idempotencyKey: r.idempotencyKey }));
  } finally {
    await client.end();
  }
}

export interface ShiftStats {
  businessDay: string;
  shift: number;
  count: number;
  min: number;
  max: number;
  /** max − count: numbers never given to a stored order (from 1 to max). */
  skipped: number;
  /** The missing numbers (from 1 to max) as ranges, e.g. "12, 265–281". */
  missing: string;
}

/** [1,2,3,7,9,10] → "1–3, 7, 9–10". */
export function ranges(sorted: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

export function shiftStats(stored: StoredOrder[]): ShiftStats[] {
  const by = new Map<string, StoredOrder[]>();
  for (const o of stored) {
    const k = `${o.businessDay}/${o.shift}`;
    by.set(k, [...(by.get(k) ?? []), o]);
  }
  return [...by.values()]
    .map((orders) => {
      const nums = [...new Set(orders.map((o) => o.number))].sort((a, b) => a - b);
      const have = new Set(nums);
      const max = nums[nums.length - 1] ?? 0;
      const gaps: number[] = [];
      for (let n = 1; n <= max; n++) if (!have.has(n)) gaps.push(n);
      const missing = ranges(gaps);
      return {
        businessDay: orders[0]!.businessDay,
        shift: orders[0]!.shift,
        count: orders.length,
        min: nums[0] ?? 0,
        max,
        skipped: max - orders.length,
        missing,
      };
    })
    .sort((a, b) => a.businessDay.localeCompare(b.businessDay) || a.shift - b.shift);
}

export interface LatencyStats {
  /** Whole order (both attempts and the pause between them). */
  p50: number;
  p99: number;
  max: number;
  /** Slowest single HTTP attempt. */
  maxAttempt: number;
  /** Slowest order that ended in 201. */
  max201: number;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function latencyStats(records: LoadRecord[]): LatencyStats {
  const total = records.map((r) => r.end - r.start).sort((a, b) => a - b);
  const attempts = records.flatMap((r) => r.attempts.map((a) => a.end - a.start));
  const ok = records.filter((r) => r.status === 201).map((r) => r.end - r.start);
  const round = (n: number) => Math.round(n);
  return {
    p50: round(pct(total, 50)),
    p99: round(pct(total, 99)),
    max: round(total[total.length - 1] ?? 0),
    maxAttempt: round(Math.max(0, ...attempts)),
    max201: round(Math.max(0, ...ok)),
  };
}

export interface CheckInput {
  scenario: string;
  records: LoadRecord[];
  stored: StoredOrder[];
  /** Faults injected in the scenario: the skip budget per shift is 50 × faults. */
  faults: number;
  minAcceptance?: number;
  /** Fault timeline (epoch ms), printed relative to the first request. */
  timeline?: { at: number; what: string }[];
  /** Extra lines (health samples, counter state…) for the report. */
  notes?: string[];
}

export interface FaultReport {
  scenario: string;
  violations: string[];
  lines: string[];
  shifts: ShiftStats[];
  latency: LatencyStats;
  acceptance: number;
  duplicates: number;
  text: string;
}

const describeRecord = (r: LoadRecord, t0: number) =>
  `${r.client}/w${r.worker}#${r.seq} node${r.node} key=${r.key} +${Math.round(r.start - t0)}..+${Math.round(r.end - t0)} ms status=${r.status} id=${r.id ?? "-"} ` +
  `attempts=[${r.attempts.map((a) => a.status ?? a.error).join(", ")}]`;

export function checkRun(input: CheckInput): FaultReport {
  const { scenario, records, stored, faults } = input;
  const minAcceptance = input.minAcceptance ?? MIN_ACCEPTANCE;
  const violations: string[] = [];
  const lines: string[] = [];
  const t0 = Math.min(...records.map((r) => r.start), ...(input.timeline ?? []).map((e) => e.at));
  const byKey = new Map(records.map((r) => [r.key, r]));
  if (byKey.size !== records.length) violations.push(`clients reused an Idempotency-Key (${records.length} records, ${byKey.size} keys): harness bug`);

  // 1. Duplicates among 201 answers: two distinct orders with one (day, shift, number).
  const ok = records.filter((r) => r.status === 201);
  const bySlot = new Map<string, LoadRecord[]>();
  for (const r of ok) {
    const slot = `${r.businessDay}/shift ${r.shift}/#${r.number}`;
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), r]);
  }
  let duplicates = 0;
  for (const [slot, rs] of bySlot) {
    const ids = new Set(rs.map((r) => r.id));
    if (ids.size > 1) {
      duplicates++;
      if (duplicates <= 10) violations.push(`DUPLICATE ${slot} given to ${ids.size} orders:\n    ${rs.map((r) => describeRecord(r, t0)).join("\n    ")}`);
    }
  }
  if (duplicates > 10) violations.push(`… ${duplicates} duplicated numbers in all`);
  const keysById = new Map<string, string[]>();
  for (const r of ok) keysById.set(r.id!, [...(keysById.get(r.id!) ?? []), r.key]);
  for (const [id, keys] of keysById)
    if (keys.length > 1) violations.push(`order ${id} was returned for ${keys.length} different Idempotency-Keys: ${keys.join(", ")}`);

  // 2. Acceptance.
  const acceptance = records.length ? ok.length / records.length : 0;
  const finals = new Map<string, number>();
  for (const r of records) {
    const last = r.attempts[r.attempts.length - 1]!;
    const k = r.status === 201 ? "201" : r.status === null ? `no answer (${last.error})` : `${r.status} ${last.code ?? ""}`.trim();
    finals.set(k, (finals.get(k) ?? 0) + 1);
  }
  const retried = records.filter((r) => r.attempts.length > 1).length;
  const firstFailures = new Map<string, number>();
  for (const r of records) {
    const a = r.attempts[0]!;
    if (a.status === 201) continue;
    const k = a.status === null ? `no answer (${a.error})` : `${a.status} ${a.code ?? ""}`.trim();
    firstFailures.set(k, (firstFailures.get(k) ?? 0) + 1);
  }
  lines.push(
    `orders: ${records.length} from ${new Set(records.filter((r) => r.client !== "probe").map((r) => r.client)).size} client processes${records.some((r) => r.client === "probe") ? " + probes" : ""}; 201: ${ok.length} (${(acceptance * 100).toFixed(2)} %); retried: ${retried}; replayed on retry: ${ok.filter((r) => r.replayed).length}`,
  );
  lines.push(`final outcomes: ${[...finals].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
  if (firstFailures.size) lines.push(`first-attempt failures: ${[...firstFailures].map(([k, n]) => `${k} ×${n}`).join(", ")}`);
  if (records.length === 0) violations.push("no requests were recorded");
  if (acceptance < minAcceptance) {
    const failed = records.filter((r) => r.status !== 201);
    violations.push(
      `ACCEPTANCE ${(acceptance * 100).toFixed(2)} % < ${(minAcceptance * 100).toFixed(1)} %: ${failed.length} of ${records.length} orders not taken; e.g.\n    ${failed
        .slice(0, 5)
        .map((r) => describeRecord(r, t0))
        .join("\n    ")}`,
    );
  }

  // 3. Stored orders vs. what clients were told.
  const storedById = new Map(stored.map((o) => [o.id, o]));
  let missingFromDb = 0;
  let mismatched = 0;
  for (const r of ok) {
    const s = storedById.get(r.id!);
    if (!s) {
      if (++missingFromDb <= 5) violations.push(`201 order not stored in PostgreSQL: ${describeRecord(r, t0)}`);
    } else if (s.businessDay !== r.businessDay || s.shift !== r.shift || s.number !== r.number) {
      if (++mismatched <= 5)
        violations.push(
          `order ${r.id} stored as ${s.businessDay}/shift ${s.shift}/#${s.number} but the client was told ${r.businessDay}/shift ${r.shift}/#${r.number}`,
        );
    }
  }
  if (missingFromDb > 5) violations.push(`… ${missingFromDb} answered-201 orders missing from PostgreSQL in all`);
  if (mismatched > 5) violations.push(`… ${mismatched} orders stored with another number than answered, in all`);
  const okIds = new Set(ok.map((r) => r.id!));
  let unseenAllowed = 0;
  const unseenBad: string[] = [];
  for (const s of stored) {
    if (okIds.has(s.id)) continue;
    const r = s.idempotencyKey ? byKey.get(s.idempotencyKey) : undefined;
    if (!r) unseenBad.push(`stored order ${s.id} (#${s.number}, shift ${s.shift}) with Idempotency-Key ${s.idempotencyKey} that no client sent`);
    else if (r.status === 201)
      unseenBad.push(`stored order ${s.id} (#${s.number}) for key ${r.key}, but that client got order ${r.id}: two orders for one key`);
    else if (r.attempts.some((a) => a.status === null)) unseenAllowed++;
    else unseenBad.push(`stored order ${s.id} (#${s.number}, shift ${s.shift}) although its client was told ${r.status} every time: ${describeRecord(r, t0)}`);
  }
  for (const v of unseenBad.slice(0, 10)) violations.push(v);
  if (unseenBad.length > 10) violations.push(`… ${unseenBad.length} stored orders that no client got, in all`);
  lines.push(
    `stored in PostgreSQL: ${stored.length} (201 answered: ${okIds.size}, stored after a client-side failure: ${unseenAllowed}, unexplained: ${unseenBad.length}, answered but missing: ${missingFromDb})`,
  );
  const expected = okIds.size - missingFromDb + unseenAllowed + unseenBad.length;
  if (stored.length !== expected) violations.push(`stored count ${stored.length} ≠ ${expected} accounted for: harness bug?`);

  const storedSlots = new Map<string, string[]>();
  for (const s of stored) {
    const slot = `${s.businessDay}/shift ${s.shift}/#${s.number}`;
    storedSlots.set(slot, [...(storedSlots.get(slot) ?? []), s.id]);
  }
  const storedDupes = [...storedSlots].filter(([, ids]) => ids.length > 1);
  for (const [slot, ids] of storedDupes.slice(0, 5)) violations.push(`DUPLICATE in PostgreSQL: ${slot} stored ${ids.length} times (${ids.join(", ")})`);

  // 4. Skipped numbers per shift.
  const shifts = shiftStats(stored);
  const budget = MAX_SKIPPED_PER_FAULT * faults;
  for (const s of shifts) {
    lines.push(
      `shift ${s.businessDay}/${s.shift}: ${s.count} orders, numbers ${s.min}..${s.max}, skipped ${s.skipped} (budget ${budget} = ${MAX_SKIPPED_PER_FAULT} × ${faults} fault${faults === 1 ? "" : "s"})` +
        (s.missing ? `; missing ${s.missing.length > 300 ? `${s.missing.slice(0, 300)}…` : s.missing}` : ""),
    );
    if (s.skipped > budget)
      violations.push(
        `SKIPPED ${s.skipped} numbers in ${s.businessDay}/shift ${s.shift} > budget ${budget} (${faults} fault${faults === 1 ? "" : "s"} × ${MAX_SKIPPED_PER_FAULT})`,
      );
  }

  // 5. Latency: printed only.
  const latency = latencyStats(records);
  lines.push(
    `latency (ms): p50 ${latency.p50}, p99 ${latency.p99}, max ${latency.max} (max single attempt ${latency.maxAttempt}, slowest 201 ${latency.max201})`,
  );

  const nodes = [...new Set(records.map((r) => r.node))].sort();
  if (nodes.length > 1) {
    for (const n of nodes) {
      const rs = records.filter((r) => r.node === n);
      lines.push(`node ${n}: ${rs.length} orders, 201: ${rs.filter((r) => r.status === 201).length}, max latency ${latencyStats(rs).max} ms`);
    }
  }
  if (input.timeline?.length) {
    lines.push(
      `timeline (ms from first request): ${[...input.timeline]
        .sort((a, b) => a.at - b.at)
        .map((e) => `+${Math.round(e.at - t0)} ${e.what}`)
        .join("; ")}`,
    );
  }
  for (const n of input.notes ?? []) lines.push(n);

  const text = [
    `── ${scenario}: ${violations.length ? `${violations.length} VIOLATION(S)` : "ok"}`,
    ...lines.map((l) => `  ${l}`),
    ...violations.map((v) => `  ✗ ${v}`),
  ].join("\n");
  return { scenario, violations, lines, shifts, latency, acceptance, duplicates, text };
}
