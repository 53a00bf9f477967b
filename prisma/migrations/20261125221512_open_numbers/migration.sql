-- Decision 0027: no two open orders show the same number. Expand-only: an old node keeps
-- writing (its rows take the defaults) and meets the index as its own unique index.

-- Writes wait for this migration (milliseconds): no open pair may appear between the marking and the index.
LOCK TABLE "Order" IN SHARE ROW EXCLUSIVE MODE;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "prefix" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "sharedOpenNumber" BOOLEAN NOT NULL DEFAULT false;

-- Open orders that already share a number with an older open one (the bug this fixes) are
-- left out of the index: nothing may renumber a ticket a customer holds.
UPDATE "Order" o SET "sharedOpenNumber" = true
WHERE o.status IN ('PLACED', 'READY') AND o."clearedAt" IS NULL
  AND EXISTS (
    SELECT 1 FROM "Order" p
    WHERE p."tenantId" = o."tenantId" AND p.prefix = o.prefix AND p.number = o.number AND p.id <> o.id
      AND p.status IN ('PLACED', 'READY') AND p."clearedAt" IS NULL
      AND (p."createdAt", p.id) < (o."createdAt", o.id)
  );

-- CreateIndex
CREATE UNIQUE INDEX "Order_open_number_key" ON "Order"("tenantId", "prefix", "number") WHERE (status IN ('PLACED', 'READY') AND "clearedAt" IS NULL AND NOT "sharedOpenNumber");
