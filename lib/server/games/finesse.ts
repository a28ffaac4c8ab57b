import 'server-only';
import { decodeSoloReplay, finesseOfReplay } from '@/lib/engine';

/**
 * A stored solo replay's finesse faults (lib/engine/finesse.ts), for the verification workers.
 * Only ever run on a replay the server verified and stored, so a replay that cannot be read is a
 * bug elsewhere: it gives null (no count) rather than failing the store that already happened.
 */
export function finesseFaultsOf(encoded: string): number | null {
  try {
    return finesseOfReplay(decodeSoloReplay(encoded)).faults;
  } catch {
    return null;
  }
}
