-- Finesse faults per stored game, counted by the server after the store. Nullable with no
-- default: older rows stay null (shown as no count), and an instance still running the previous
-- code inserts games without the column.
ALTER TABLE "Game" ADD COLUMN "finesseFaults" INTEGER;
