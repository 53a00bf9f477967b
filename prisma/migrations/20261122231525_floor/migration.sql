-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "clearedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "ageLateMinutes" INTEGER NOT NULL DEFAULT 20,
ADD COLUMN     "ageWarnMinutes" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "language" TEXT,
ADD COLUMN     "readyClearMinutes" INTEGER NOT NULL DEFAULT 10;
