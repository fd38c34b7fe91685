-- AlterTable
ALTER TABLE "price_watches" ADD COLUMN     "size" TEXT;
