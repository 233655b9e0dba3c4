// The web client's service worker (served at /sw.js, scope /): it shows the server's Web Push
// notices and opens the table when one is clicked. It caches nothing: the page works as before.
// A notice is { title, body, url, gameId, kind, tag } (never a card); url is a path of this site.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** A path of this site, or the front page: a notice never sends the player to another site. */
function ownUrl(raw) {
  try {
    const url = new URL(typeof raw === 'string' ? raw : '/', self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

const text = (value, max) => (typeof value === 'string' ? value.slice(0, max) : '');

self.addEventListener('push', (event) => {
  let notice;
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {};
  }
  const tag = text(notice.tag, 200);
  event.waitUntil(
    self.registration.showNotification(text(notice.title, 120) || 'Mizerka', {
      body: text(notice.body, 400),
      // One notification per game in the tray: a newer notice replaces it, and says so.
      tag: tag || undefined,
      renotify: tag !== '',
      data: { url: ownUrl(notice.url), gameId: typeof notice.gameId === 'string' ? notice.gameId : null, kind: text(notice.kind, 40) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = ownUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      // A tab of this site already open is brought forward and taken to the table; else a new one.
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        const focused = await open.focus();
        if (focused.url !== url && 'navigate' in focused) await focused.navigate(url).catch(() => focused.postMessage({ type: 'open', url }));
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
