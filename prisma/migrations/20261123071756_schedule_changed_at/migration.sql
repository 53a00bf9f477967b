-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "scheduleChangedAt" TIMESTAMPTZ(3);
