// A verification worker's first module: plain JavaScript, so Node can start it; it installs the
// TypeScript loader the server's own scripts use (tsx) and loads the worker module named in
// workerData. The module is loaded from the checkout, as scripts/serve.mjs loads lib/*.js.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
