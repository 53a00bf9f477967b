-- Number series (issue #21, decision 0027), expand only: a node of the previous release
-- keeps running beside this one; it writes default-series rows (seriesId NULL), which the
-- narrowed per-shift index still covers under the same name.
-- DropIndex
DROP INDEX "Order_tenantId_businessDay_shift_number_key";

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "seriesId" UUID,
ADD COLUMN     "seriesName" TEXT,
ADD COLUMN     "ticket" INTEGER;

-- CreateTable
CREATE TABLE "NumberSeries" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL DEFAULT '',
    "first" INTEGER NOT NULL DEFAULT 1,
    "last" INTEGER,
    "channels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "NumberSeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeriesCeiling" (
    "tenantId" UUID NOT NULL,
    "seriesId" UUID NOT NULL,
    "businessDay" DATE NOT NULL,
    "shift" INTEGER NOT NULL,
    "ceiling" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeriesCeiling_pkey" PRIMARY KEY ("tenantId","seriesId","businessDay","shift")
);

-- CreateIndex
CREATE INDEX "NumberSeries_tenantId_idx" ON "NumberSeries"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Order_tenantId_businessDay_shift_number_key" ON "Order"("tenantId", "businessDay", "shift", "number") WHERE ("seriesId" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Order_series_ticket_key" ON "Order"("tenantId", "businessDay", "shift", "seriesId", "ticket") WHERE ("seriesId" IS NOT NULL);

-- Rebuilt after the per-shift indexes: PostgreSQL checks unique indexes in the order they
-- were made, and a number the counter handed out twice must read as a duplicate (the
-- counter's block is then abandoned), not as an open number to skip.
DROP INDEX "Order_open_number_key";
CREATE UNIQUE INDEX "Order_open_number_key" ON "Order"("tenantId", "prefix", "number") WHERE (status IN ('PLACED', 'READY') AND "clearedAt" IS NULL AND NOT "sharedOpenNumber");

-- AddForeignKey
ALTER TABLE "NumberSeries" ADD CONSTRAINT "NumberSeries_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SeriesCeiling" ADD CONSTRAINT "SeriesCeiling_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SeriesCeiling" ADD CONSTRAINT "SeriesCeiling_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "NumberSeries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
