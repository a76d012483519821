// The page's service worker: the folder kept in the browser's cache, so that the page
// opens with no network at all after a first visit (a club table without Wi-Fi).  The
// page's own files are kept when it installs; a board's UF2 once the page has fetched
// it (the other board's is not downloaded for nothing).  A new build has another
// VERSION: the browser installs it beside the old one, which is dropped once the new
// one took over.
'use strict';

const VERSION = '@VERSION@';
const FILES = @FILES@;
const CACHE = `coinche-web-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith('coinche-web-') && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).origin === location.origin) cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  if (event.request.method === 'GET') event.respondWith(answer(event.request));
});
