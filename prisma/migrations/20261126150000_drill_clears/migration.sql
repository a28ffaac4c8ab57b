-- The clears a drill mode counts (Perfect Clears ranks by them); 0 for every game of the other modes.
ALTER TABLE "Game" ADD COLUMN "clears" INTEGER NOT NULL DEFAULT 0;
