-- AlterTable
ALTER TABLE "PrintJob" ADD COLUMN     "holder" UUID,
ADD COLUMN     "sendingAt" TIMESTAMPTZ(3);
