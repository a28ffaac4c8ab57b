import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The import boundaries in eslint.config.mjs, checked by linting small fixtures at the paths they
// would have: each rule must refuse its violation and let the allowed form through.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundary messages ESLint gives a fixture placed at `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('keeps lib/server out of browser code, but lets a type through', async () => {
    const value = "import { getDb } from '@/lib/server/db';\nexport const db = getDb;\n";
    for (const file of ['components/boards/Fixture.tsx', 'lib/client/fixture.ts']) {
      expect(await boundaryErrors(file, value)).toEqual([expect.stringContaining('never imports lib/server')]);
    }
    const type = "import type { BoardRow } from '@/lib/server/games/boards';\nexport type Row = BoardRow;\n";
    expect(await boundaryErrors('components/boards/Fixture.tsx', type)).toEqual([]);
  });

  it('keeps lib/client out of server pages', async () => {
    const code = "import { readPending } from '@/lib/client/pending';\nexport const read = readPending;\n";
    expect(await boundaryErrors('app/fixture/page.tsx', code)).toEqual([expect.stringContaining('never import lib/client')]);
    expect(await boundaryErrors('components/game/Fixture.tsx', code)).toEqual([]);
  });

  it('lets code outside the engine import it only through its index', async () => {
    const inside = "import { CELLS } from '@/lib/engine/pieces';\nexport const cells = CELLS;\n";
    for (const file of ['app/fixture/page.tsx', 'components/game/fixture.ts', 'lib/server/fixture.ts', 'lib/client/fixture.ts']) {
      expect(await boundaryErrors(file, inside)).toEqual([expect.stringContaining('through @/lib/engine')]);
    }
    expect(await boundaryErrors('lib/server/fixture.ts', "import { MODES } from '@/lib/engine';\nexport const modes = MODES;\n")).toEqual([]);
  });

  it('has one import style, @/, outside the engine; the engine imports nothing from outside', async () => {
    const relative = "import { x } from './neighbour';\nexport const y = x;\n";
    for (const file of ['lib/server/fixture.ts', 'components/fixture.tsx', 'lib/client/fixture.ts', 'tests/unit/fixture.test.ts', 'app/fixture/page.tsx']) {
      expect(await boundaryErrors(file, relative)).toEqual([expect.stringContaining('one import style')]);
    }
    expect(await boundaryErrors('lib/engine/fixture.ts', relative)).toEqual([]);
    expect(await boundaryErrors('lib/engine/fixture.ts', "import { formatTime } from '@/lib/ui/format';\nexport const f = formatTime;\n")).toHaveLength(1);
  });
});
