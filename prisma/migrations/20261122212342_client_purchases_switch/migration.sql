-- AlterTable
ALTER TABLE "api_clients" ADD COLUMN     "purchases_enabled" BOOLEAN;
