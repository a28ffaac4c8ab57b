// The channel between `npm run db:backup` and a running site on the embedded database: a Unix
// socket in a directory beside the data directory that only the account running the site may
// enter. Nothing on the network can reach it, so it needs no secret of its own
// (docs/decisions/0009-backups.md).
import http from 'node:http';
import path from 'node:path';

/**
 * The socket's own directory: made 0700 before the socket is, so there is no moment when the
 * socket exists and others may connect (a socket's own mode is set only after it listens).
 * @param {string} dataDir
 */
export const adminSocketDir = (dataDir) => `${dataDir}.admin`;

/** @param {string} dataDir */
export const adminSocketPath = (dataDir) => path.join(adminSocketDir(dataDir), 'backup.sock');

/**
 * Asks the site holding `dataDir` for a backup and streams it into `output`.
 * @param {string} dataDir
 * @param {NodeJS.WritableStream} output
 * @returns {Promise<boolean>} false when no site holds the directory (no socket, or a stale one)
 */
export function backupFromServer(dataDir, output) {
  return new Promise((resolve, reject) => {
    const request = http.get({ socketPath: adminSocketPath(dataDir), path: '/backup' }, (response) => {
      if (response.statusCode !== 200) {
        let body = '';
        response.on('data', (d) => (body += d));
        response.on('end', () => reject(new Error(`the running site refused the backup (${response.statusCode}): ${body}`)));
        return;
      }
      // A dump that fails half-way ends the response early: the file then lacks its end marker.
      response.on('aborted', () => reject(new Error('the running site stopped sending the backup half-way (see its log)')));
      response.pipe(output);
      output.on('finish', () => resolve(true));
      output.on('error', reject);
    });
    request.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(false);
      else reject(error);
    });
  });
}

/**
 * True when a site answers on the directory's admin socket (it holds the directory open).
 * @param {string} dataDir
 */
export function serverHolds(dataDir) {
  return new Promise((resolve) => {
    const request = http.get({ socketPath: adminSocketPath(dataDir), path: '/ping' }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('error', () => resolve(false));
  });
}
