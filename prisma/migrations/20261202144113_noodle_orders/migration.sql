-- AlterTable
ALTER TABLE "MenuCategory" ADD COLUMN     "optionGroups" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "MenuItem" ADD COLUMN     "optionGroups" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "service" TEXT;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "askService" TEXT NOT NULL DEFAULT 'off',
ADD COLUMN     "defaultService" TEXT NOT NULL DEFAULT 'eatIn',
ADD COLUMN     "soldOutAcceptedFrom" TEXT[] DEFAULT ARRAY[]::TEXT[];
