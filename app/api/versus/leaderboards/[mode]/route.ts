import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { apiError, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { getVersusBoard, InvalidCursorError } from '@/lib/server/versus/boards';
import { versusBoardQuerySchema } from '@/lib/validations/versus';

export const GET = route(async (request: Request, { params }: { params: Promise<{ mode: string }> }) => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = versusBoardQuerySchema.safeParse({ ...search, mode: (await params).mode });
  if (!parsed.success) return validationError(parsed.error);
  const user = await getSessionUser();
  try {
    const board = await getVersusBoard({ ...parsed.data, viewerId: user?.id ?? null });
    return NextResponse.json(board, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    if (error instanceof InvalidCursorError) return apiError(400, 'invalid_cursor', 'The page cursor is invalid; start from the first page.');
    throw error;
  }
});
