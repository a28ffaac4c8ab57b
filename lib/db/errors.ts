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

/**
 * True when a write named a row that is not there (SQLSTATE 23503): Prisma's P2003 for a model
 * write; for a raw one P2010, the adapter's error in its `meta` (PGlite's adapter passes
 * PostgreSQL's code, PostgreSQL's names the kind).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2003') return true;
    const cause = e as AdapterCause;
    if (cause.code === '23503' || cause.originalCode === '23503' || cause.kind === 'ForeignKeyConstraintViolation') return true;
    const meta = e instanceof Prisma.PrismaClientKnownRequestError ? (e.meta as { driverAdapterError?: unknown } | undefined) : undefined;
    e = meta?.driverAdapterError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Thrown while the database cannot be reached or opened; the API answers 503 with Retry-After. */
export class DbUnavailableError extends Error {
  override name = 'DbUnavailableError';
}

// Prisma's codes for "no database to talk to": can't reach, timed out, connection closed, pool exhausted.
const UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// Adapter error kinds for the same, and SQLSTATE classes 08 (connection) and 57P (server shutting down).
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist']);
const UNREACHABLE_SQLSTATE = /^(08|57P0[1-3]|53300)/;
// P2028 is every "Transaction API error"; only this one means no connection came free in time.
const NO_CONNECTION_FOR_TRANSACTION = /unable to start a transaction in the given time/i;
const UNREACHABLE_TEXT = /can't reach database|connection terminated|connection (was )?closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|server (has )?closed the connection|timeout exceeded when trying to connect|PGlite is closed|terminating connection/i;

/**
 * True when an error means the database is away rather than that the query was wrong: both
 * adapters, raw and model queries, a closed PGlite, and connections dropped mid-query.
 */
export function isDbUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DbUnavailableError || e instanceof Prisma.PrismaClientInitializationError) return true;
    if (e instanceof Prisma.PrismaClientKnownRequestError) {
      if (UNREACHABLE_CODES.has(e.code)) return true;
      if (e.code === 'P2028' && NO_CONNECTION_FOR_TRANSACTION.test(e.message)) return true;
      const meta = e.meta as { code?: string; message?: string } | undefined;
      if (e.code === 'P2010' && (UNREACHABLE_SQLSTATE.test(meta?.code ?? '') || UNREACHABLE_TEXT.test(meta?.message ?? e.message))) return true;
    }
    const cause = e as AdapterCause & { message?: unknown };
    if (cause.kind && UNREACHABLE_KINDS.has(cause.kind)) return true;
    if (UNREACHABLE_SQLSTATE.test(cause.originalCode ?? '') || (typeof cause.code === 'string' && UNREACHABLE_SQLSTATE.test(cause.code))) return true;
    if (typeof cause.message === 'string' && UNREACHABLE_TEXT.test(cause.message)) return true;
  }
  return false;
}
