-- CreateTable
CREATE TABLE "BackupRun" (
    "id" UUID NOT NULL,
    "slot" TIMESTAMPTZ(3) NOT NULL,
    "node" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "ok" BOOLEAN,
    "file" TEXT,
    "bytes" BIGINT,
    "orders" INTEGER,
    "error" TEXT,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "BackupRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BackupRun_slot_key" ON "BackupRun"("slot");
