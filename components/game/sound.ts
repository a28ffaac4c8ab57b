import type { GameEvent } from '@/lib/engine';
import type { SoundEffect, SoundSettings } from '@/lib/validations/touch-sound';
import { clearNotes, comboNotes, finishNotes, goNotes, SOUNDS, type Note } from '@/components/game/sounds';

/** Which effects a batch of engine events sounds, with the notes of each, in order. */
export function soundsFor(events: readonly GameEvent[]): Array<[SoundEffect, readonly Note[]]> {
  const out: Array<[SoundEffect, readonly Note[]]> = [];
  for (const e of events) {
    switch (e.type) {
      case 'move':
        if (e.source !== 'gravity') out.push(['move', SOUNDS.move]);
        break;
      case 'rotate':
        out.push(['rotate', SOUNDS.rotate]);
        break;
      case 'softDrop':
        out.push(['softDrop', SOUNDS.softDrop]);
        break;
      case 'hardDrop':
        out.push(['hardDrop', SOUNDS.hardDrop]);
        break;
      case 'lock':
        out.push(['lock', SOUNDS.lock]);
        if (e.spin !== 'none') out.push(['tspin', SOUNDS.tspin]);
        if (e.linesCleared > 0) out.push(['clear', clearNotes(e.linesCleared)]);
        if (e.b2b) out.push(['b2b', SOUNDS.b2b]);
        if (e.combo > 0) out.push(['combo', comboNotes(e.combo)]);
        if (e.perfectClear) out.push(['perfectClear', SOUNDS.perfectClear]);
        break;
      case 'levelUp':
        out.push(['levelUp', SOUNDS.levelUp]);
        break;
      case 'gameOver':
        out.push(['gameOver', SOUNDS.gameOver]);
        break;
      case 'finished':
        out.push(['gameOver', finishNotes]);
        break;
    }
  }
  return out;
}

/**
 * The game's sound: reacts to the engine's events (never to its state), like the renderer.
 * Nothing is created or played until the page has had a user gesture (the browser's user
 * activation), so a page that is only looked at stays silent.
 */
export class GameSound {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  private settings: SoundSettings = { volume: 60, muted: true, off: [] };

  update(settings: SoundSettings): void {
    this.settings = settings;
    if (this.master) this.master.gain.value = this.level();
  }

  events(events: readonly GameEvent[]): void {
    if (events.length === 0 || this.silent()) return;
    // DAS at ARR 0 moves many cells a tick: one click per batch, not a buzz.
    let moved = false;
    for (const [effect, notes] of soundsFor(events)) {
      if (effect === 'move') {
        if (moved) continue;
        moved = true;
      }
      this.play(effect, notes);
    }
  }

  countdown(count: number): void {
    if (!this.silent()) this.play('countdown', count > 0 ? SOUNDS.countdown : goNotes);
  }

  private level(): number {
    return this.settings.muted ? 0 : (this.settings.volume / 100) * 0.6;
  }

  private silent(): boolean {
    return this.settings.muted || this.settings.volume === 0;
  }

  private play(effect: SoundEffect, notes: readonly Note[]): void {
    if (this.settings.off.includes(effect)) return;
    const ctx = this.context();
    if (!ctx || !this.master) return;
    const now = ctx.currentTime;
    for (const note of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = note.wave;
      const start = now + note.at;
      const end = start + note.len;
      osc.frequency.setValueAtTime(note.from, start);
      if (note.to !== note.from) osc.frequency.exponentialRampToValueAtTime(note.to, end);
      // A quick attack and an exponential tail: no clicks at either end.
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(note.gain, start + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.0001, end);
      osc.connect(gain).connect(this.master);
      osc.start(start);
      osc.stop(end + 0.02);
    }
  }

  private context(): AudioContext | null {
    if (this.ctx) {
      if (this.ctx.state === 'suspended') void this.ctx.resume();
      return this.ctx;
    }
    const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
    if (!activation?.hasBeenActive || typeof AudioContext === 'undefined') return null;
    this.ctx = new AudioContext({ latencyHint: 'interactive' });
    this.master = this.ctx.createGain();
    this.master.gain.value = this.level();
    this.master.connect(this.ctx.destination);
    return this.ctx;
  }

  dispose(): void {
    void this.ctx?.close();
    this.ctx = null;
  }
}
