-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "currency" TEXT,
ADD COLUMN     "kioskNumberOnly" BOOLEAN NOT NULL DEFAULT false;
