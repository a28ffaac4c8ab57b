import 'server-only';
import type { Db } from '@/lib/server/db';

/** The client or a transaction's client: data-layer steps that can run inside either. */
export type Tx = Omit<Db, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
