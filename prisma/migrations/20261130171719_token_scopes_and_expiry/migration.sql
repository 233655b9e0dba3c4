-- CreateEnum
CREATE TYPE "TokenScope" AS ENUM ('read', 'play', 'admin');

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "scopes" "TokenScope"[] DEFAULT ARRAY['read', 'play', 'admin']::"TokenScope"[];
