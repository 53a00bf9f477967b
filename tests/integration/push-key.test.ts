/**
 * The deployment's VAPID key (decision 0053): nodes starting at once agree on one key (the
 * insert that wins), it is sealed at rest, and another SESSION_SECRET cannot open it (push
 * off) rather than silently making a new one.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { loadVapidKeys, type VapidKeys } from "@/lib/adapters/postgres/push-store.server";
import { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import { createTestDatabase, type TestDatabase } from "../support/db";

let db: TestDatabase;
let prisma: ReturnType<typeof createPrisma>;

beforeAll(async () => {
  db = await createTestDatabase("push-key");
  prisma = createPrisma(db.url, { max: 8 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

it("six nodes starting at once all get the same key; the private key is sealed; another SESSION_SECRET cannot open it", async () => {
  const secret = randomBytes(32).toString("hex");
  const loaded = await Promise.all(Array.from({ length: 6 }, () => loadVapidKeys(prisma, new SecretCipher(secret))));
  const keys = loaded as VapidKeys[];
  expect(keys.every((k) => "publicKey" in k)).toBe(true);
  expect(new Set(keys.map((k) => k.publicKey)).size).toBe(1);
  expect(new Set(keys.map((k) => k.privateKey)).size).toBe(1);
  expect(Buffer.from(keys[0]!.publicKey, "base64url")).toHaveLength(65);
  expect(Buffer.from(keys[0]!.privateKey, "base64url")).toHaveLength(32);

  const row = await prisma.pushKey.findUniqueOrThrow({ where: { id: 1 } });
  expect(row.privateKeyEnc).toMatch(/^v1:/);
  expect(row.privateKeyEnc).not.toContain(keys[0]!.privateKey);
  expect(await prisma.pushKey.count()).toBe(1);

  expect(await loadVapidKeys(prisma, new SecretCipher(randomBytes(32).toString("hex")))).toEqual({ unreadable: true });
  // Not replaced: the old key is still the one stored.
  expect((await prisma.pushKey.findUniqueOrThrow({ where: { id: 1 } })).publicKey).toBe(keys[0]!.publicKey);
});
