-- Attack, garbage cleared and lines sent per stored game and seat (APM and VS on the profile and
-- the match page). Nullable: rows measured before, and rows an older instance writes mid-deploy,
-- have none and read as "not measured".
ALTER TABLE "GameFeatures" ADD COLUMN "attack" INTEGER,
ADD COLUMN "garbageCleared" INTEGER,
ADD COLUMN "sent" INTEGER;
