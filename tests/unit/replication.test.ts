import { describe, expect, it } from "vitest";
import { historyWentBack, latestHistory, replicationOf, type ReplicationFacts } from "@/lib/core/replication";

const facts = (f: Partial<ReplicationFacts>): ReplicationFacts => ({
  synchronousStandbyNames: "",
  synchronousCommit: "on",
  standbys: 0,
  history: { systemId: "7712", timeline: 1 },
  ...f,
});

describe("replicationOf (decision 0028)", () => {
  it("named synchronous standbys with a commit level that waits for them: sync, even with none connected", () => {
    expect(replicationOf(facts({ synchronousStandbyNames: "*", standbys: 1 }))).toBe("sync");
    expect(replicationOf(facts({ synchronousStandbyNames: "FIRST 1 (s1, s2)", synchronousCommit: "remote_apply", standbys: 0 }))).toBe("sync");
    expect(replicationOf(facts({ synchronousStandbyNames: "ANY 1 (s1)", synchronousCommit: "remote_write", standbys: null }))).toBe("sync");
  });

  it("a commit level that does not wait makes named standbys asynchronous", () => {
    expect(replicationOf(facts({ synchronousStandbyNames: "*", synchronousCommit: "local", standbys: 1 }))).toBe("async");
    expect(replicationOf(facts({ synchronousStandbyNames: "*", synchronousCommit: "off", standbys: 2 }))).toBe("async");
  });

  it("a streaming standby without synchronous names: async; no standby: none; unreadable: unknown", () => {
    expect(replicationOf(facts({ standbys: 1 }))).toBe("async");
    expect(replicationOf(facts({ standbys: 0 }))).toBe("none");
    expect(replicationOf(facts({ standbys: null }))).toBe("unknown");
    expect(replicationOf(null)).toBe("unknown");
  });
});

describe("historyWentBack", () => {
  const h = (systemId: string, timeline: number) => ({ systemId, timeline });
  it("a later timeline (a standby promoted) or another system: yes", () => {
    expect(historyWentBack(h("1", 1), h("1", 2))).toBe(true);
    expect(historyWentBack(h("1", 3), h("2", 1))).toBe(true);
  });
  it("the same history, or one side unknown: no", () => {
    expect(historyWentBack(h("1", 2), h("1", 2))).toBe(false);
    expect(historyWentBack(null, h("1", 2))).toBe(false);
    expect(historyWentBack(h("1", 2), null)).toBe(false);
  });
  it("latestHistory keeps the later timeline, and the other system once it is in use", () => {
    expect(latestHistory(h("1", 2), h("1", 1))).toEqual(h("1", 2));
    expect(latestHistory(h("1", 1), h("1", 2))).toEqual(h("1", 2));
    expect(latestHistory(h("1", 5), h("2", 1))).toEqual(h("2", 1));
    expect(latestHistory(null, h("1", 1))).toEqual(h("1", 1));
  });
});
