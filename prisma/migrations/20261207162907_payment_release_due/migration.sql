-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "release_due_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "payments_release_due_at_idx" ON "payments"("release_due_at");
