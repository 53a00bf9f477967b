-- CreateTable
CREATE TABLE "CounterCeiling" (
    "tenantId" UUID NOT NULL,
    "businessDay" DATE NOT NULL,
    "shift" INTEGER NOT NULL,
    "ceiling" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CounterCeiling_pkey" PRIMARY KEY ("tenantId","businessDay","shift")
);

-- AddForeignKey
ALTER TABLE "CounterCeiling" ADD CONSTRAINT "CounterCeiling_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
