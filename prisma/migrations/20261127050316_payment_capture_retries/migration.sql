-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "capture_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_capture_at" TIMESTAMPTZ(3);
