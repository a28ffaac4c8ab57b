// What a doc names, read from its Markdown: what tests/unit/docs-true.test.ts checks exists.
// - `path`: a backticked path from the root (`lib/engine/match.ts`, `tests/resilience/`).
// - `link`: a Markdown link's target, from the doc's folder (or the root, when it starts with '/').
// - `route`: a page or API route (`/play/{mode}`, `GET /api/live`) whose first segment is one of app/'s:
//   a folder under app/ serves it (`{x}` or an example value may be a dynamic segment).
// - `file`: a backticked file name alone (`pacing.ts`): some file in the project has it.
// - `script`: `npm run <name>`, anywhere (prose, inline or fenced code).
// - `code`: a backticked identifier (`LIVE_LIMITS`, `Game.clone()`, `vresumed`): each dotted part is
//   a word in the source. Environment variables are checked the same way: something reads them.

export type DocName = { kind: 'path' | 'link' | 'route' | 'file' | 'script' | 'code'; text: string };

const ROOTS = 'app|components|lib|scripts|bench|tests|prisma|public|docs|\\.ci';
const PATH = new RegExp(`^(?:${ROOTS})(?:/[\\w.@()\\[\\]-]+)*/?$`);
const FILE = /^[\w.-]+\.(?:ts|tsx|mjs|js|md|prisma|json|css|sql|sh)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const ROUTE = /^(?:(?:GET|POST|PUT|PATCH|DELETE) )?(\/[\w{}./[\]-]*)(?:\?.*)?$/;
/** Names from outside the project: the platform, libraries, tools and system calls a note compares with. */
const OUTSIDE = new Set(['null', 'window', 'localStorage', 'navigator', 'AudioContext', 'requirepass', 'writev', 'pg_dump', 'howler', 'zzfx', 'glicko2.ts']);

export function docNames(markdown: string): DocName[] {
  const out: DocName[] = [];
  for (const [, script] of markdown.matchAll(/npm run ([\w:-]+)/g)) out.push({ kind: 'script', text: script! });
  // Inline code outside fenced blocks (a fence's lines are commands and output, not names).
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, target] of prose.replace(/`[^`\n]+`/g, '').matchAll(/\]\(([^)#\s]+)\)/g)) {
    if (!/^[a-z]+:/.test(target!)) out.push({ kind: 'link', text: target! });
  }
  for (const [, span] of prose.matchAll(/`([^`\n]+)`/g)) {
    const name = classify(span!.trim());
    if (name) out.push(name);
  }
  return out;
}

function classify(span: string): DocName | null {
  if (span.includes('*') || span.includes('<') || span.includes('…')) return null; // a pattern or a placeholder
  if (OUTSIDE.has(span) || OUTSIDE.has(span.split('.')[0]!)) return null;
  if (PATH.test(span)) return { kind: 'path', text: span };
  if (FILE.test(span)) return { kind: 'file', text: span };
  const route = ROUTE.exec(span)?.[1];
  if (route && route.length > 1 && !route.includes('.')) return { kind: 'route', text: route };
  if (IDENTIFIER.test(span)) return { kind: 'code', text: span.replace(/\(\)$/, '') };
  return null;
}
