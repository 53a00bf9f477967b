-- DropIndex
DROP INDEX "Order_tenantId_businessDay_idempotencyKey_key";

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "idempotencyScope" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Order_tenantId_businessDay_idempotencyKey_key" ON "Order"("tenantId", "businessDay", "idempotencyKey") WHERE ("idempotencyScope" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Order_tenantId_businessDay_idempotencyScope_idempotencyKey_key" ON "Order"("tenantId", "businessDay", "idempotencyScope", "idempotencyKey");
