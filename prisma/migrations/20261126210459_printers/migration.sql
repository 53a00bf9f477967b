-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "printGiveUpMinutes" INTEGER NOT NULL DEFAULT 10;

-- CreateTable
CREATE TABLE "Printer" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL DEFAULT 9100,
    "paper" TEXT NOT NULL DEFAULT '80mm',
    "charset" TEXT NOT NULL DEFAULT 'latin',
    "channels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "series" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'unknown',
    "checkedAt" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "checkingUntil" TIMESTAMPTZ(3),
    "drainOwner" UUID,
    "drainingUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Printer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PrintJob" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "tenantId" UUID NOT NULL,
    "printerId" UUID NOT NULL,
    "orderId" UUID,
    "kind" TEXT NOT NULL DEFAULT 'ticket',
    "url" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "printedAt" TIMESTAMPTZ(3),
    "gaveUpAt" TIMESTAMPTZ(3),

    CONSTRAINT "PrintJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Printer_tenantId_name_key" ON "Printer"("tenantId", "name");

-- CreateIndex
CREATE INDEX "PrintJob_waiting_idx" ON "PrintJob"("printerId", "seq") WHERE (state = ANY (ARRAY['queued'::text, 'printing'::text]));

-- CreateIndex
CREATE INDEX "PrintJob_tenantId_createdAt_idx" ON "PrintJob"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "PrintJob_orderId_idx" ON "PrintJob"("orderId");

-- CreateIndex
CREATE INDEX "PrintJob_createdAt_idx" ON "PrintJob"("createdAt");

-- AddForeignKey
ALTER TABLE "Printer" ADD CONSTRAINT "Printer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrintJob" ADD CONSTRAINT "PrintJob_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrintJob" ADD CONSTRAINT "PrintJob_printerId_fkey" FOREIGN KEY ("printerId") REFERENCES "Printer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
