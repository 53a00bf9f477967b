-- AlterTable
ALTER TABLE "MenuCategory" ADD COLUMN     "stationId" UUID;

-- AlterTable
ALTER TABLE "MenuItem" ADD COLUMN     "stationId" UUID;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "stations" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "PrintJob" ADD COLUMN     "stationId" UUID;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "readyWhen" TEXT NOT NULL DEFAULT 'parts';

-- CreateTable
CREATE TABLE "Station" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "printerId" UUID,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Station_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Station_live_name_key" ON "Station"("tenantId", "name") WHERE ("deletedAt" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Station_one_default_key" ON "Station"("tenantId") WHERE ("isDefault" AND "deletedAt" IS NULL);

-- AddForeignKey
ALTER TABLE "Station" ADD CONSTRAINT "Station_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
