/* global self, caches, fetch, Response, URL */
// The service worker's code, served by app/sw.js/route.ts with this build's asset list in front
// (`const VERSION = …, ASSETS = […], MODE_PAGES = […]`). Plain script: it runs in the worker, outside the bundler.
//
// - /_next/static (hashed, immutable): precached, then cache first.
// - Pages that work offline (OFFLINE_PAGES): network first; the last good copy answers offline.
//   A cached page keeps the CSP header it came with, whose nonce matches its own scripts.
// - Everything else, and every /api request: the network only. API answers are never stored.
// - A navigation that fails offline with no copy gets a small page that points to practice.
const STATIC = `linefall-static-${VERSION}`;
const PAGES = `linefall-pages-${VERSION}`;
// MODE_PAGES (every solo mode's play page) is written before this code by app/sw.js, from the engine's MODE_NAMES.
const OFFLINE_PAGES = ['/', '/practice', '/play', ...MODE_PAGES, '/settings'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC);
      // One at a time keeps a phone's connection usable; a missing file fails the install (retried on the next visit).
      for (const url of ASSETS) if (!(await cache.match(url))) await cache.add(url);
      const pages = await caches.open(PAGES);
      await pages.add(new Request('/practice', { credentials: 'same-origin' }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('linefall-') && name !== STATIC && name !== PAGES) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (url.pathname.startsWith('/_next/static/')) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === 'navigate') {
    event.respondWith(page(request, url));
  }
});

async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(STATIC)).put(request, response.clone());
  return response;
}

async function page(request, url) {
  const keep = OFFLINE_PAGES.includes(url.pathname);
  try {
    const response = await fetch(request);
    if (keep && response.ok && response.type === 'basic') (await caches.open(PAGES)).put(url.pathname, response.clone());
    return response;
  } catch (error) {
    const copy = keep ? await caches.match(url.pathname, { cacheName: PAGES }) : undefined;
    if (copy) return copy;
    if (request.mode !== 'navigate') throw error;
    return offlinePage();
  }
}

function offlinePage() {
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Linefall</title><body style="font-family:system-ui,sans-serif;background:#0b1120;color:#f1f5f9;padding:2rem;line-height:1.5">' +
    '<h1>You are offline</h1><p>This page needs a connection. Ranked games need one too: the server checks every score.</p>' +
    '<p><a style="color:#22d3ee" href="/practice">Practice works offline</a>.</p></body></html>';
  return new Response(html, {
    status: 503,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
  });
}
