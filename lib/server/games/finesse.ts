import 'server-only';
import { decodeSoloReplay, finesseOfReplay } from '@/lib/engine';

/**
 * A solo replay's finesse faults (lib/engine/finesse.ts), counted by the verification job once the
 * replay is verified. A replay it cannot count is a bug here, never the player's: it gives null (the
 * game is stored without a count) rather than failing the game's store.
 */
export function finesseFaultsOf(encoded: string): number | null {
  try {
    return finesseOfReplay(decodeSoloReplay(encoded)).faults;
  } catch {
    return null;
  }
}
