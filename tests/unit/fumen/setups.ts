import type { PiecePlacement, PieceType } from '@/lib/engine';

/**
 * Fumen strings as players share them. The first two are the examples in tetris-fumen's README
 * (a TSD opener played piece by piece, and the Perfect Clear Opener with its mirror page); the
 * third is IKcco's first bag from eight04's fancy-t-spin notes.
 */
export const COMMUNITY_FUMENS: Record<string, string> = {
  'TSD opener (tetris-fumen README)': 'v115@vhGRQYHAvItJEJmhCAUGJKJJvMJTNJGBJFKYPAUEzP?EJG98AQmqhECDdCA',
  'PCO (tetris-fumen README)':
    'v115@9gilGeglRpGeg0RpGei0GeI8AeAgWYAQIKvDll2TAS?IvBElCyTASIqPEFGNXEvhE9tB0sBXjBAwSYATwgkDlt0TAz?B88AQx2vAx178AwngHBAAPMAFbuYCJciNEyoAVB',
  'IKcco first bag (fancy-t-spin)': 'v115@+gR4FewhR4CeAtRpg0whilAeBtRpg0whglCeAtBeh0?whJeAgHvhCtlfllBAAAShxhFeQ4g0CeAtBehlQ4JeAAA',
};

interface Setup {
  rows: string[];
  active: PiecePlacement | null;
  hold: PieceType | null;
  queue: PieceType[];
}

/** Boards as ASCII rows (top to bottom, bottom-aligned) with what a player would hold and see next. */
export const SETUP_BOARDS: Record<string, Setup> = {
  // TKI-3: the I flat under the Z, L and S walls, J roofing the TSD slot.
  'TKI': {
    rows: ['....JJJ...', '.ZZ...J...', 'LLZZ..SSOO', 'L.IIIISSOO'].map((r) => r),
    active: { type: 'T', rotation: '0', x: 4, y: 19 },
    hold: null,
    queue: ['I', 'O', 'S', 'Z', 'J', 'L'],
  },
  // Perfect Clear Opener, I vertical left: T in hold waiting for the last slot.
  'PCO': {
    rows: ['I.....SS..', 'I.ZZ.SS.OO', 'IJJZZLLLOO', 'IJ...L....'.replace('IJ...L....', 'IJ....LL..')],
    active: null,
    hold: 'T',
    queue: ['I', 'S', 'Z', 'O', 'J', 'L', 'T'],
  },
  // DT cannon after its second bag: the TSD slot on the left, the TST overhang above it.
  'DT cannon': {
    rows: ['..........', 'ZZ........', '.ZZ.......', 'X..XXXXXXX', 'XX.XXXXXXX', 'X.XXXXXXXX', 'X.XXXXXXXX'],
    active: { type: 'T', rotation: 'L', x: 2, y: 4 },
    hold: 'O',
    queue: ['S', 'Z'],
  },
  // A T-spin triple slot (the T kicks in under the roof in state L).
  'T-spin triple': {
    rows: ['.XXX......', 'X.XXXXXXXX', '..XXXXXXXX', 'X.XXXXXXXX'],
    active: { type: 'T', rotation: '0', x: 4, y: 19 },
    hold: 'I',
    queue: [],
  },
  // A cheese race: ten rows of garbage, one hole each, and nothing else.
  'all garbage': {
    rows: ['XXXX.XXXXX', 'XXXXXXX.XX', '.XXXXXXXXX', 'XXXXXX.XXX', 'XX.XXXXXXX', 'XXXXXXXX.X', 'XXX.XXXXXX', 'XXXXX.XXXX', 'X.XXXXXXXX', 'XXXXXXXXX.'],
    active: null,
    hold: null,
    queue: [],
  },
};
