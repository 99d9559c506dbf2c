// The hall's service worker: shows a push alert ("Your turn in Patchwork") and opens its room when
// clicked. Served at /sw.js so that its scope is the whole hall.

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { title: "Parlour", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Parlour", {
    body: data.body || "", data: { url: data.url || "/me" }, tag: data.url || "parlour",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url || "/me", self.location.origin);
  if (url.origin !== self.location.origin) return;  // only the hall's own pages
  event.waitUntil(self.clients.openWindow(url.href));
});
