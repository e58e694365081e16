// Ticks the home page's "closes in HH:MM" down to the second. The server renders the
// same figure to the minute, so the page is right without JavaScript too; this only
// keeps it moving, and says when the next deal is out.
const pad = (n) => String(n).padStart(2, "0");

for (const value of document.querySelectorAll("[data-countdown]")) {
  const time = value.closest("time[datetime]");
  if (!time) continue;
  const until = Date.parse(time.getAttribute("datetime"));
  if (Number.isNaN(until)) continue;
  const tick = () => {
    const left = Math.max(0, Math.floor((until - Date.now()) / 1000));
    value.textContent = `${pad(Math.floor(left / 3600))}:${pad(Math.floor(left / 60) % 60)}:${pad(left % 60)}`;
    if (left === 0) {
      clearInterval(timer);
      // The next day's deal has opened: show it.
      setTimeout(() => window.location.reload(), 2000);
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
}
