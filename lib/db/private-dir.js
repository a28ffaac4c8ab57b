// The embedded database's files hold password hashes, session secrets and tokens: its directory
// (and data/, beside the local auth secret) is the running account's alone. Plain JS: the launcher
// scripts use it with no TypeScript step.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PGLITE_DIR } from './target.js';

const OPEN_BITS = 0o077;

/**
 * Files this process creates from now on are its account's alone, whatever umask it was started
 * with (backups, the admin socket, the local secret). Worker threads cannot set it (their files
 * are made by the main one). PGlite is not helped by it: its file system sets each file's mode
 * itself (0666), hence closeTree after it opens.
 */
export function restrictUmask() {
  try {
    process.umask(process.umask() | OPEN_BITS);
  } catch {
    /* a worker thread: nothing to do */
  }
}

/**
 * Throws when other accounts may enter, read or write `dir`, naming it and the fix.
 * @param {string} dir
 */
export function assertPrivateDir(dir) {
  const mode = statSync(dir).mode & 0o777;
  if ((mode & OPEN_BITS) === 0) return;
  throw new Error(
    `${dir} is open to other accounts on this machine (mode ${mode.toString(8).padStart(3, '0')}), ` +
      `but it holds password hashes, session secrets and tokens. Close it with:  chmod -R go-rwx '${dir}'  (then start again)`,
  );
}

/**
 * Creates `dir` (and any missing parent) readable only by this account, and checks an existing one.
 * @param {string} dir
 */
export function ensurePrivateDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  assertPrivateDir(dir);
}

/**
 * Takes group and other access off everything under `dir` (files written by an earlier version,
 * or under a looser umask). Symbolic links are left alone, never followed.
 * @param {string} dir
 */
export function closeTree(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = lstatSync(full).mode & 0o777;
    if (mode & OPEN_BITS) chmodSync(full, mode & ~OPEN_BITS);
    if (entry.isDirectory()) closeTree(full);
  }
}

/**
 * Before PGlite opens `dataDir`: the directory (and data/ when it is the default one) created
 * 0700 or found so, and a clear error if it is open to others. The 0700 directory is the
 * boundary: PGlite makes every file 0666, so the files of a new database are closed once it is
 * open (`closeTree`, called by the opener), and any it adds while running, unreachable behind the
 * directory, are closed at the next start.
 * @param {string} dataDir
 */
export function preparePgliteDir(dataDir) {
  restrictUmask();
  if (dataDir === path.resolve(DEFAULT_PGLITE_DIR)) ensurePrivateDir(path.dirname(dataDir));
  ensurePrivateDir(dataDir);
}

/**
 * A directory only this process's account uses (the admin socket's): made 0700, or taken back to
 * 0700 if it is looser; refused when it is not a real directory of this account's (another account
 * could have made it first to put its own socket there).
 * @param {string} dir
 */
export function ownPrivateDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
    throw new Error(`${dir} is not a directory of this account's: remove it and start again`);
  }
  if (stat.mode & OPEN_BITS) chmodSync(dir, 0o700);
}
