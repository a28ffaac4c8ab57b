import { describe, expect, it } from 'vitest';
import { AddressSlots } from '@/lib/server/live/address-slots';

describe('slots per address', () => {
  it('gives an address its limit, another address its own, and a slot back once however often it is given', () => {
    const slots = new AddressSlots(2);
    const first = slots.take('a');
    expect(first).not.toBeNull();
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
    expect(slots.take('b')).not.toBeNull();
    first!();
    first!(); // the second call gives nothing back
    expect(slots.count('a')).toBe(1);
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
  });
});
