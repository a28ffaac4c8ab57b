import { Prisma } from '@/lib/generated/prisma/client';

type AdapterCause = { kind?: string; code?: string; originalCode?: string };

/**
 * True when a write lost to a unique index. PostgreSQL's adapter reports it as Prisma's
 * P2002; the PGlite adapter passes the raw PostgreSQL error (SQLSTATE 23505) through in
 * `cause`, so both shapes are checked here and nowhere else.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === 'P2002';
  if (error instanceof Error && error.name === 'DriverAdapterError') {
    const cause = error.cause as AdapterCause | undefined;
    return cause?.code === '23505' || cause?.originalCode === '23505' || cause?.kind === 'UniqueConstraintViolation';
  }
  return false;
}
