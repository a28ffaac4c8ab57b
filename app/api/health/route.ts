import { NextResponse } from 'next/server';
import { getDb } from '@/lib/server/db';

export const dynamic = 'force-dynamic';

/** Liveness for load balancers and the e2e harness: the server answers and the database too. */
export async function GET() {
  const db = await getDb();
  await db.$queryRaw`SELECT 1`;
  return NextResponse.json({ ok: true });
}
