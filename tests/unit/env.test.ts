import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "@/lib/server/env.server";

function problems(env: Record<string, string>): string[] {
  try {
    loadEnv(env);
  } catch (e) {
    expect(e).toBeInstanceOf(EnvError);
    return (e as EnvError).problems;
  }
  throw new Error("expected an EnvError");
}

describe("environment", () => {
  it("starts development with no environment at all", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ NODE_ENV: "development", PORT: 3000, REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: "nextup:" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("starts production with no environment at all on the embedded defaults (one box, decision 0047)", () => {
    const env = loadEnv({ NODE_ENV: "production" });
    expect(env).toMatchObject({ NODE_ENV: "production", EMBEDDED: true });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("requires SESSION_SECRET in production with DATABASE_URL", () => {
    const p = problems({ NODE_ENV: "production", DATABASE_URL: "postgresql://app@db/nextup" });
    expect(p).toEqual([expect.stringMatching(/^SESSION_SECRET: is required in production with DATABASE_URL/)]);
    expect(loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgresql://app@db/nextup", SESSION_SECRET: "x".repeat(32) }).EMBEDDED).toBe(false);
  });

  it("names each malformed variable", () => {
    const p = problems({ PORT: "eighty", REDIS_URL: "localhost:6379", DATABASE_URL: "mysql://x", SESSION_SECRET: "short" });
    for (const name of ["PORT", "REDIS_URL", "DATABASE_URL", "SESSION_SECRET"]) expect(p.some((x) => x.startsWith(name))).toBe(true);
  });

  it("refuses a multi-host DATABASE_URL in words (node-postgres would throw 'Invalid URL'), and takes one host", () => {
    const p = problems({ DATABASE_URL: "postgresql://app:secret@db1:5432,db2:5432/nextup?target_session_attrs=read-write" });
    expect(p).toEqual([expect.stringMatching(/^DATABASE_URL: must name one host: several hosts .* are not supported; put PgBouncer/)]);
    expect(p.join()).not.toContain("secret");
    expect(loadEnv({ DATABASE_URL: "postgresql://app:a,b@db1:5432/nextup?options=-c%20x%3Dy,z" }).DATABASE_URL).toContain("db1");
  });

  it("treats empty strings as unset", () => {
    expect(loadEnv({ PORT: "", REDIS_URL: "" }).PORT).toBe(3000);
  });

  it("reads PUBLIC_URL as an http(s) origin without its trailing slash", () => {
    expect(loadEnv({ PUBLIC_URL: "https://queue.example.com/" }).PUBLIC_URL).toBe("https://queue.example.com");
    expect(loadEnv({ PUBLIC_URL: "http://192.168.1.23:3000" }).PUBLIC_URL).toBe("http://192.168.1.23:3000");
    expect(loadEnv({}).PUBLIC_URL).toBeUndefined();
  });

  it("refuses a PUBLIC_URL that is not an http(s) origin, naming the variable", () => {
    for (const bad of ["queue.example.com", "ftp://queue.example.com", "https://queue.example.com/nextup", "https://q.example.com/?x=1"]) {
      const p = problems({ PUBLIC_URL: bad });
      expect(p).toHaveLength(1);
      expect(p[0]).toMatch(/^PUBLIC_URL: .*http\(s\) origin/);
    }
  });
});

describe("webhook destinations", () => {
  it("WEBHOOKS_ALLOW_LINK_LOCAL names addresses and ranges of 169.254.0.0/16, with WEBHOOKS_ALLOW_PRIVATE only", () => {
    expect(loadEnv({}).WEBHOOKS_ALLOW_LINK_LOCAL).toBeUndefined();
    expect(loadEnv({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_LINK_LOCAL: "169.254.7.20, 169.254.8.0/24" }).WEBHOOKS_ALLOW_LINK_LOCAL).toEqual([
      "169.254.7.20",
      "169.254.8.0/24",
    ]);
    expect(problems({ WEBHOOKS_ALLOW_LINK_LOCAL: "169.254.7.20" })).toEqual([
      expect.stringMatching(/^WEBHOOKS_ALLOW_LINK_LOCAL: needs WEBHOOKS_ALLOW_PRIVATE=true/),
    ]);
    const p = problems({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_LINK_LOCAL: "169.254.169.254,10.0.0.1,printer" });
    expect(p).toHaveLength(3);
    for (const x of p) expect(x).toMatch(/^WEBHOOKS_ALLOW_LINK_LOCAL: "(169\.254\.169\.254|10\.0\.0\.1|printer)"/);
  });
});

describe("scheduler settings", () => {
  it("defaults to on, a 10 s lock and 30 minutes of grace", () => {
    expect(loadEnv({})).toMatchObject({ SCHEDULER: true, SCHEDULER_LOCK_TTL_MS: 10_000, SCHEDULE_GRACE_MINUTES: 30 });
    expect(loadEnv({ SCHEDULER: "off", SCHEDULER_LOCK_TTL_MS: "2000" })).toMatchObject({ SCHEDULER: false, SCHEDULER_LOCK_TTL_MS: 2_000 });
  });

  it("names a lock TTL out of range and a bad switch", () => {
    const p = problems({ SCHEDULER: "yes", SCHEDULER_LOCK_TTL_MS: "500", SCHEDULE_GRACE_MINUTES: "-1" });
    for (const name of ["SCHEDULER", "SCHEDULER_LOCK_TTL_MS", "SCHEDULE_GRACE_MINUTES"]) expect(p.some((x) => x.startsWith(`${name}:`))).toBe(true);
    expect(problems({ SCHEDULER_LOCK_TTL_MS: "60001" }).some((x) => x.startsWith("SCHEDULER_LOCK_TTL_MS"))).toBe(true);
  });

  it("TRUST_PROXY takes a hop count or addresses, and names itself when it is neither", () => {
    expect(loadEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe("1");
    expect(loadEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toBe("loopback, 10.0.0.0/8");
    expect(problems({ TRUST_PROXY: "the proxy" })[0]).toMatch(/^TRUST_PROXY: /);
  });
});

describe("web push settings (decision 0053)", () => {
  it("PUSH_SERVICES: origins, comma-separated; a malformed entry stops the start naming it", () => {
    expect(loadEnv({ PUSH_SERVICES: "http://127.0.0.1:4567, https://push.example.com/" }).PUSH_SERVICES).toEqual([
      "http://127.0.0.1:4567",
      "https://push.example.com",
    ]);
    expect(loadEnv({}).PUSH_SERVICES).toEqual([]);
    expect(problems({ PUSH_SERVICES: "https://push.example.com/v1" })).toEqual([
      expect.stringMatching(/^PUSH_SERVICES: "https:\/\/push.example.com\/v1" is not an origin/),
    ]);
  });

  it("PUSH_CONTACT is taken as given: an invalid one turns push off with a warning at start, it does not stop the server", () => {
    expect(loadEnv({ PUSH_CONTACT: "mailto:me@localhost" }).PUSH_CONTACT).toBe("mailto:me@localhost");
  });
});
