-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "check_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_check_at" TIMESTAMPTZ(3);
