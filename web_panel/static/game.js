/* A game page: the phone's own view, drawn by the game's board script, kept live by the event
   stream (the whole view, or a delta of it), with polling while the stream is down; actions,
   rolls and the host's tools. The stream resumes from the last version seen (Last-Event-ID)
   after sleep, reload or the server ending a long stream. */
"use strict";
(function () {
  const T = window.Tabletop;
  const root = document.getElementById("game");
  if (!root) return;
  const page = JSON.parse(document.getElementById("game-data").textContent);
  const board = document.getElementById("board");
  const banner = document.getElementById("reconnecting");
  const live = document.getElementById("live");
  let view = JSON.parse(document.getElementById("view-data").textContent);
  let source = null;
  let pollTimer = null;
  let failures = 0;

  const ctx = {
    gameId: page.game_id,
    info: page.info,
    isHost: page.is_host,
    replay: page.replay,
    tournament: page.tournament,
    urls: page.urls,
    t: (key, values) => T.message(key, values),
    act: (action) => T.post(page.urls.act, { action }),
    chance: (body) => T.post(page.urls.chance, body),
  };

  /* Draw the board for the current view (the same call for the first drawing and updates). */
  function draw() {
    const renderer = window.TabletopBoards.board(page.game);
    board.replaceChildren(renderer.render(view, ctx));
    root.dataset.version = String(view.version);
    document.dispatchEvent(new CustomEvent("tabletop:view", { detail: view }));
  }

  /* Apply a delta (web_panel/view_delta.py): ["s", path, value] sets, ["d", path] deletes. */
  function applyDelta(target, ops) {
    let whole = target;
    for (const op of ops) {
      const path = op[1];
      if (path.length === 0) { whole = op[2]; continue; }
      let node = whole;
      for (const key of path.slice(0, -1)) node = node[key];
      const last = path[path.length - 1];
      if (op[0] === "d") {
        if (Array.isArray(node)) node.splice(last, 1); else delete node[last];
      } else {
        node[last] = op[2];
      }
    }
    return whole;
  }

  function publish(fresh) {
    view = fresh;
    draw();
  }

  function setConnected(ok) {
    banner.hidden = ok;
    live.classList.toggle("on", ok);
    document.body.classList.toggle("reconnecting", !ok);
  }

  async function poll() {
    try {
      const response = await fetch(page.urls.view, { credentials: "same-origin" });
      if (!response.ok) return;
      const fresh = await response.json();
      if (fresh.version !== view.version) publish(fresh);
    } catch (err) { /* still offline; the banner says so */ }
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = setInterval(poll, 3000);
  }

  function stopPolling() {
    if (pollTimer !== null) { clearInterval(pollTimer); pollTimer = null; }
  }

  function connect() {
    if (page.replay) return;
    if (!window.EventSource) { setConnected(false); startPolling(); return; }
    if (source) source.close();
    source = new EventSource(page.urls.events + "?since=" + view.version);
    let openedAt = 0;
    source.addEventListener("open", () => {
      openedAt = Date.now(); failures = 0; setConnected(true); stopPolling();
    });
    source.addEventListener("view", (event) => {
      const data = JSON.parse(event.data);
      if (data.version !== view.version) publish(data.view);
    });
    source.addEventListener("replaced", (event) => {
      const data = JSON.parse(event.data);
      T.showError(T.message("seat_replaced") || data.message, true);
    });
    source.addEventListener("delta", (event) => {
      const data = JSON.parse(event.data);
      if (data.base !== view.version) { poll(); return; }  // not the view it was made for
      publish(applyDelta(view, data.ops));
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CONNECTING && openedAt && Date.now() - openedAt > 10000) {
        openedAt = 0;  // the server ended a long stream: it reconnects (and resumes) by itself
        return;
      }
      setConnected(false);
      failures += 1;
      startPolling();
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, Math.min(1000 * failures, 10000));
      }
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) {
      connect();
    }
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });

  async function send(promise, button) {
    if (button) button.disabled = true;
    try {
      await promise;
      T.showError("");
      return true;
    } catch (err) {
      T.showError(err);
      if (button) button.disabled = false;
      return false;
    }
  }

  board.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]");
    if (action) { send(ctx.act(action.dataset.action), action); return; }
    const chance = event.target.closest("[data-chance]");
    if (chance) { send(ctx.chance({ action: chance.dataset.chance }), chance); return; }
    const random = event.target.closest("[data-chance-random]");
    if (random) send(ctx.chance({ roll: "random" }), random);
  });

  document.addEventListener("click", async (event) => {
    const hostButton = event.target.closest("[data-host-post]");
    if (!hostButton) return;
    if (hostButton.dataset.confirm && !window.confirm(hostButton.dataset.confirm)) return;
    await send(T.post(hostButton.dataset.hostPost, {}), hostButton);
    hostButton.disabled = false;
  });

  /* A replay's chart: each seat's score after every step. */
  function replayChart() {
    const box = document.getElementById("replay-chart");
    if (!box || !page.steps) return;
    const series = {};
    page.steps.forEach((step, index) => {
      const scores = step.scores || {};
      for (const [seat, value] of Object.entries(scores)) {
        if (typeof value !== "number") continue;
        if (!series[seat]) series[seat] = new Array(index).fill(value);
        series[seat].push(value);
      }
    });
    const labels = page.steps.map((_, i) => String(i));
    box.replaceChildren(window.TabletopKit.chart(view, series, labels, ctx) || "");
  }

  window.TabletopGame = { view: () => view, act: ctx.act, applyDelta, draw, ctx, replay: page.replay };
  // The game's own scripts load after this one; draw once they have registered the board.
  document.addEventListener("DOMContentLoaded", () => { draw(); replayChart(); connect(); });
})();
