-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "requestHash" TEXT;
