-- CreateTable
CREATE TABLE "reminder_settings" (
    "player_id" UUID NOT NULL,
    "push" JSONB NOT NULL,
    "email" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reminder_settings_pkey" PRIMARY KEY ("player_id")
);

-- CreateTable
CREATE TABLE "reminder_turns" (
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "keys" TEXT[],
    "fired" INTEGER[] DEFAULT ARRAY[]::INTEGER[],

    CONSTRAINT "reminder_turns_pkey" PRIMARY KEY ("game_id")
);

-- AddForeignKey
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reminder_turns" ADD CONSTRAINT "reminder_turns_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
