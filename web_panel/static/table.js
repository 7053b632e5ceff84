/* The table screen (web_panel/table.py), which no one touches: it moves on by itself.

   With a game, game.js draws it and keeps it live on the screen's own stream, and loads the
   screen again when the stream says it is to show another game ("moved"); this script fetches
   the standings when the game ends, to show them beside its results, and fits the board to the
   screen. With no game, this script holds the stream, which only ever says "moved". Either way
   it asks the screen to stay awake where the browser lets a page ask (a tablet on the table). */
"use strict";
(function () {
  const screen = document.getElementById("table");
  if (!screen) return;

  /* The whole board in view: scaled down (CSS zoom, to no less than half) when it would reach
     below the screen, for no one scrolls a screen across the room. A smaller board is laid out
     wider, and so shorter: the largest zoom that fits is found by halving the interval. */
  const board = document.getElementById("board");
  function fits(zoom) {
    board.style.zoom = zoom === 1 ? "" : String(zoom);
    const box = board.getBoundingClientRect();
    return box.bottom + 8 <= window.innerHeight;
  }
  function fit() {
    window.scrollTo(0, 0);
    if (fits(1)) return;
    let low = 0.5;
    let high = 1;
    for (let step = 0; step < 6; step += 1) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle; else high = middle;
    }
    fits(low);
  }

  async function stayAwake() {
    try {
      if (navigator.wakeLock && document.visibilityState === "visible") await navigator.wakeLock.request("screen");
    } catch (err) { /* not here (an address that is not secure, a low battery): the screen may sleep */ }
  }
  stayAwake();
  document.addEventListener("visibilitychange", stayAwake);

  /* The game has ended on the screen: the standings beside its results (fetched alone). */
  let standingsShown = screen.dataset.status !== "active";
  async function showStandings() {
    standingsShown = true;
    try {
      const response = await fetch(screen.dataset.standings, { credentials: "same-origin" });
      if (!response.ok) return;
      const html = await response.text();
      const placed = document.getElementById("table-standings");
      if (placed) placed.outerHTML = html;
      else document.querySelector(".table-side").insertAdjacentHTML("beforeend", html);
    } catch (err) { /* offline: the next game's page brings them */ }
  }

  if (document.getElementById("game")) {
    document.addEventListener("tabletop:view", (event) => {
      if (!standingsShown && event.detail.status !== "active") showStandings();
      fit();
    });
    const lastMove = document.getElementById("last-move");
    if (window.ResizeObserver && lastMove) new ResizeObserver(fit).observe(lastMove);
    window.addEventListener("resize", fit);
    return;
  }

  const live = document.getElementById("live");
  let failures = 0;
  function connect() {
    const source = new EventSource(screen.dataset.events);
    source.addEventListener("open", () => { failures = 0; live.classList.add("on"); });
    source.addEventListener("moved", () => { source.close(); window.location.reload(); });
    source.addEventListener("error", () => {
      live.classList.remove("on");
      if (source.readyState === EventSource.CLOSED) {  // refused (the box is busy): later
        failures += 1;
        setTimeout(connect, Math.min(2000 * failures, 30000));
      }
    });
  }
  connect();
})();
