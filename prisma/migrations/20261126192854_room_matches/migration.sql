-- CreateTable
CREATE TABLE "RoomMatch" (
    "id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "rulesVersion" INTEGER NOT NULL,
    "rules" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "winnerTeam" INTEGER NOT NULL,
    "ranked" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomMatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoomSeat" (
    "matchId" TEXT NOT NULL,
    "seat" INTEGER NOT NULL,
    "team" INTEGER NOT NULL,
    "userId" TEXT,
    "guestId" TEXT,
    "botPps" INTEGER,
    "botStyle" TEXT,
    "won" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoomSeat_pkey" PRIMARY KEY ("matchId","seat")
);

-- CreateTable
CREATE TABLE "RoomGame" (
    "matchId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "winnerTeam" INTEGER,
    "reason" TEXT NOT NULL,
    "endTick" INTEGER NOT NULL,
    "replays" TEXT[],
    "leaves" TEXT NOT NULL,

    CONSTRAINT "RoomGame_pkey" PRIMARY KEY ("matchId","index")
);

-- CreateIndex
CREATE INDEX "RoomMatch_createdAt_idx" ON "RoomMatch"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "RoomSeat_userId_createdAt_idx" ON "RoomSeat"("userId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "RoomSeat" ADD CONSTRAINT "RoomSeat_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "RoomMatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomSeat" ADD CONSTRAINT "RoomSeat_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomGame" ADD CONSTRAINT "RoomGame_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "RoomMatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

