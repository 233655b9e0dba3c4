-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "featured" BOOLEAN NOT NULL DEFAULT false;
