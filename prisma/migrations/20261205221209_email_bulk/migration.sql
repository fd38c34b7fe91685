-- DropIndex
DROP INDEX "email_messages_status_next_attempt_at_idx";

-- DropIndex
DROP INDEX "email_messages_status_created_at_idx";

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "bulk" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "email_messages_status_bulk_next_attempt_at_idx" ON "email_messages"("status", "bulk", "next_attempt_at");

-- CreateIndex
CREATE INDEX "email_messages_status_created_at_bulk_idx" ON "email_messages"("status", "created_at", "bulk");
