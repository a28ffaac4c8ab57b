import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docNames, type DocName } from '@/tests/support/doc-names';

// The decision notes and the README name files, npm scripts, environment variables and code. A rename
// that leaves a doc behind fails here, not in a reader's hands (tests/support/doc-names.ts says what
// counts as a name).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const notesDir = path.join(root, 'docs/decisions');
const notes = readdirSync(notesDir).filter((f) => /^\d{4}-.+\.md$/.test(f)).sort();
const docs = ['README.md', 'docs/capacity.md', 'docs/decisions/README.md', ...notes.map((n) => `docs/decisions/${n}`)];

const SOURCE_DIRS = ['app', 'components', 'lib', 'scripts', 'bench', 'tests', 'prisma', 'public', '.ci'];
const SOURCE_FILE = /\.(ts|tsx|mjs|js|cjs|prisma|sql|css|json|sh)$|^run$/;

/** Every file under the source directories, relative to the root. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'generated') walk(rel);
      } else if (SOURCE_FILE.test(entry.name)) out.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(root, dir))) walk(dir);
  for (const file of readdirSync(root)) if (statSync(path.join(root, file)).isFile() && SOURCE_FILE.test(file)) out.push(file);
  return out;
}

const files = sourceFiles();
const basenames = new Set([...files.map((f) => path.basename(f)), ...readdirSync(root), ...readdirSync(path.join(root, 'docs'))]);
const words = new Set<string>();
for (const file of files) for (const word of readFileSync(path.join(root, file), 'utf8').match(/[A-Za-z_$][\w$-]*/g) ?? []) {
  words.add(word);
  // `foo-bar` in code is also the words `foo` and `bar` (CSS classes, keys, message codes).
  if (word.includes('-')) for (const part of word.split('-')) words.add(part);
}
const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

function missing(name: DocName, doc: string): boolean {
  switch (name.kind) {
    case 'path':
      return !existsSync(path.join(root, name.text.replace(/\/$/, '')));
    case 'link':
      // As Markdown reads it: from the doc's own folder, or from the root when it starts with '/'.
      return !existsSync(name.text.startsWith('/') ? path.join(root, name.text) : path.join(root, path.dirname(doc), name.text));
    case 'route':
      return routeMissing(name.text);
    case 'file':
      return !basenames.has(name.text);
    case 'script':
      return !scripts.includes(name.text);
    case 'code':
      return !name.text.split('.').every((part) => words.has(part));
    default:
      return name.kind satisfies never;
  }
}

/** The folders under `dir` that serve a URL segment: route groups `(x)` are looked through. */
function children(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => (/^\(.+\)$/.test(e.name) ? children(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/**
 * A route whose first segment is none of app/'s is not a claim about this site (`/usr/bin/chromium`,
 * a socket's `/backup`). Otherwise each segment must be served: by its folder, or, for `{x}` or an
 * example value, by a dynamic one (`[x]`; a catch-all `[...x]` only for `{x}`).
 */
function routeMissing(route: string): boolean {
  const segments = route.replace(/\/$/, '').split('/').slice(1);
  let dirs = [path.join(root, 'app')];
  for (const [i, segment] of segments.entries()) {
    const next = dirs.flatMap(children);
    const literal = next.filter((d) => path.basename(d) === segment);
    const dynamic = next.filter((d) => path.basename(d).startsWith('['));
    if (i === 0 && literal.length === 0) return false;
    // A catch-all stands in for a placeholder, never for a named page (app/api/[...path] answers 404s).
    dirs = segment.startsWith('{') ? dynamic : literal.length > 0 ? literal : dynamic.filter((d) => !path.basename(d).startsWith('[...'));
    if (dirs.length === 0) return true;
  }
  return false;
}

describe('the docs name only what exists', () => {
  it.each(docs)('%s', (doc) => {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const stale = docNames(text).filter((n) => missing(n, doc)).map((n) => `${n.kind} ${n.text}`);
    expect(stale).toEqual([]);
  });
});

describe('decision notes', () => {
  it.each(notes)('%s is at most 80 lines, with a decision and known holes', (note) => {
    const text = readFileSync(path.join(notesDir, note), 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^## .*decision/im);
    expect(text).toMatch(/^## .*(known holes|holes)/im);
  });

  it('are all listed in the index, which accounts for every gap in the numbering', () => {
    const index = readFileSync(path.join(notesDir, 'README.md'), 'utf8');
    for (const note of notes) expect(index).toContain(`(${note})`);
    const numbers = notes.map((n) => Number(n.slice(0, 4)));
    for (let n = 1; n < Math.max(...numbers); n++) {
      if (!numbers.includes(n)) expect(index).toMatch(new RegExp(`^- ${String(n).padStart(4, '0')}\\b.*(not used|never written|skipped)`, 'm'));
    }
  });

  it('that are replaced name a successor that exists', () => {
    for (const note of notes) {
      const status = /^.*Status: ([^\n]*)/m.exec(readFileSync(path.join(notesDir, note), 'utf8'))?.[1] ?? '';
      const successor = /(?:replaced|superseded) by (\d{4})/i.exec(status)?.[1];
      if (successor) expect(notes.some((n) => n.startsWith(successor))).toBe(true);
    }
  });
});
