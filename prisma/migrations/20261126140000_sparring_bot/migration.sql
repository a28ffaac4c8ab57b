-- A seat the sparring bot played: its pace and style. Nullable, so rows from before and rows an
-- older instance writes mid-deploy read as a player's or a guest's seat.
ALTER TABLE "VersusSeat" ADD COLUMN "botPps" INTEGER,
ADD COLUMN "botStyle" TEXT;
