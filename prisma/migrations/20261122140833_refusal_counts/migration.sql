-- CreateTable
CREATE TABLE "RefusalCount" (
    "day" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RefusalCount_pkey" PRIMARY KEY ("day","code")
);

