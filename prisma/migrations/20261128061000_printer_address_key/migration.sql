-- AlterTable
ALTER TABLE "Printer" ADD COLUMN     "addressKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Printer_addressKey_key" ON "Printer"("addressKey");

-- Existing printers claim their address where no other printer uses it (the key is lower-case "host:port", "[v6]:port", as printerAddressKey writes it).
UPDATE "Printer" p SET "addressKey" = CASE WHEN p."host" LIKE '%:%' THEN '[' || lower(p."host") || ']' ELSE lower(p."host") END || ':' || p."port"
WHERE NOT EXISTS (SELECT 1 FROM "Printer" q WHERE q."id" <> p."id" AND lower(q."host") = lower(p."host") AND q."port" = p."port");
