import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chachaBlock } from '@/lib/engine/chacha20';
import { KeyStream, seedKey, STREAM_HOLES, STREAM_PIECES } from '@/lib/engine/keystream';
import { sha256Words } from '@/lib/engine/sha256';

const wordsLE = (bytes: Uint8Array): Uint32Array => {
  const out = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = (bytes[i * 4]! | (bytes[i * 4 + 1]! << 8) | (bytes[i * 4 + 2]! << 16) | (bytes[i * 4 + 3]! << 24)) >>> 0;
  return out;
};
const hexLE = (words: Uint32Array): string => Buffer.from(words.buffer, words.byteOffset, words.byteLength).toString('hex');
const hexBE = (words: Uint32Array): string => [...words].map((w) => w.toString(16).padStart(8, '0')).join('');

function block(keyBytes: Uint8Array, counter: number, nonceBytes: Uint8Array): string {
  const out = new Uint32Array(16);
  const n = wordsLE(nonceBytes);
  chachaBlock(wordsLE(keyBytes), counter, n[0]!, n[1]!, n[2]!, out);
  return hexLE(out);
}

describe('ChaCha20 block function (RFC 8439)', () => {
  it('gives the keystream of section 2.3.2', () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const nonce = Buffer.from('000000090000004a00000000', 'hex');
    expect(block(key, 1, nonce)).toBe(
      '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e' + 'd2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e',
    );
  });

  it('gives test vector #1 of appendix A.1 (all-zero key, nonce and counter)', () => {
    expect(block(new Uint8Array(32), 0, new Uint8Array(12))).toBe(
      '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7' + 'da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586',
    );
  });

  it('agrees with OpenSSL on random keys, nonces and counters', () => {
    for (let i = 0; i < 200; i++) {
      const key = randomBytes(32);
      const nonce = randomBytes(12);
      const counter = randomBytes(4).readUInt32LE(0);
      const iv = Buffer.concat([Buffer.from(Uint32Array.of(counter).buffer), nonce]);
      const expected = createCipheriv('chacha20', key, iv).update(Buffer.alloc(64)).toString('hex');
      expect(block(key, counter, nonce)).toBe(expected);
    }
  });
});

describe('SHA-256 (FIPS 180-4)', () => {
  it('hashes the standard examples', () => {
    const of = (s: string) => hexBE(sha256Words(Buffer.from(s, 'utf8')));
    expect(of('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(of('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(of('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with Node on every length across block boundaries', () => {
    for (let n = 0; n < 300; n++) {
      const bytes = randomBytes(n);
      expect(hexBE(sha256Words(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});

describe('KeyStream', () => {
  it('reads the words of blocks 0, 1, 2… of its stream in order', () => {
    const key = seedKey('abc');
    const s = new KeyStream(key, STREAM_PIECES);
    const words = Array.from({ length: 40 }, () => s.next());
    const expected: number[] = [];
    const out = new Uint32Array(16);
    for (let b = 0; b < 3; b++) {
      chachaBlock(key, b, STREAM_PIECES, 0, 0, out);
      expected.push(...out);
    }
    expect(words).toEqual(expected.slice(0, 40));
    expect([s.counter, s.pos]).toEqual([3, 8]);
  });

  it('keys each seed by SHA-256 of its UTF-8 bytes, and keeps pieces and holes apart', () => {
    expect(hexBE(seedKey('é'))).toBe(createHash('sha256').update('é', 'utf8').digest('hex'));
    const key = seedKey('seed');
    const a = new KeyStream(key, STREAM_PIECES);
    const b = new KeyStream(key, STREAM_HOLES);
    expect(Array.from({ length: 16 }, () => a.next())).not.toEqual(Array.from({ length: 16 }, () => b.next()));
  });
});
