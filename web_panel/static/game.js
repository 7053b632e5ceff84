/* A game page: the live stream of this phone's own view, the board swap, actions and rolls.
   The stream resumes from the last version seen (Last-Event-ID) after sleep or reload; while it is
   down a "reconnecting" banner shows and the view is polled instead. */
"use strict";
(function () {
  const T = window.Tabletop;
  const root = document.getElementById("game");
  if (!root) return;
  const board = document.getElementById("board");
  const banner = document.getElementById("reconnecting");
  const live = document.getElementById("live");
  let version = Number(root.dataset.version);
  let view = JSON.parse(document.getElementById("view-data").textContent);
  let source = null;
  let pollTimer = null;
  let failures = 0;

  function publish(newView, html) {
    if (html !== undefined) board.innerHTML = html;
    view = newView;
    version = newView.version;
    root.dataset.version = String(version);
    document.dispatchEvent(new CustomEvent("tabletop:view", { detail: view }));
  }

  function setConnected(ok) {
    banner.hidden = ok;
    live.classList.toggle("on", ok);
    document.body.classList.toggle("reconnecting", !ok);
  }

  async function poll() {
    try {
      const response = await fetch(root.dataset.viewUrl, { credentials: "same-origin" });
      if (!response.ok) return;
      const fresh = await response.json();
      if (fresh.version !== version) {
        const html = await (await fetch(root.dataset.boardUrl, { credentials: "same-origin" })).text();
        publish(fresh, html);
      }
    } catch (err) { /* still offline; the banner says so */ }
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = setInterval(poll, 3000);
  }

  function stopPolling() {
    if (pollTimer !== null) { clearInterval(pollTimer); pollTimer = null; }
  }

  function connect() {
    if (!window.EventSource) { setConnected(false); startPolling(); return; }
    if (source) source.close();
    source = new EventSource(root.dataset.eventsUrl + "?since=" + version);
    source.addEventListener("open", () => { failures = 0; setConnected(true); stopPolling(); });
    source.addEventListener("view", (event) => {
      const data = JSON.parse(event.data);
      if (data.version !== version || data.html) publish(data.view, data.html);
    });
    source.addEventListener("error", () => {
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

  async function act(url, body, button) {
    if (button) button.disabled = true;
    try {
      await T.post(url, body);
      T.showError("");
      return true;
    } catch (err) {
      T.showError(err.message);
      if (button) button.disabled = false;
      return false;
    }
  }

  board.addEventListener("click", (event) => {
    const pick = event.target.closest("[data-pick]");
    if (pick) {
      for (const group of board.querySelectorAll("[data-variants]")) {
        group.hidden = group.dataset.variants !== pick.dataset.pick;
      }
      for (const other of board.querySelectorAll("[data-pick]")) {
        other.classList.toggle("selected", other === pick);
      }
      return;
    }
    const action = event.target.closest("[data-action]");
    if (action) { act(root.dataset.actUrl, { action: action.dataset.action }, action); return; }
    const chance = event.target.closest("[data-chance]");
    if (chance) { act(root.dataset.chanceUrl, { action: chance.dataset.chance }, chance); return; }
    const random = event.target.closest("[data-chance-random]");
    if (random) act(root.dataset.chanceUrl, { roll: "random" }, random);
  });

  document.addEventListener("click", async (event) => {
    const hostButton = event.target.closest("[data-host-post]");
    if (!hostButton) return;
    if (hostButton.dataset.confirm && !window.confirm(hostButton.dataset.confirm)) return;
    await act(hostButton.dataset.hostPost, {}, hostButton);
    hostButton.disabled = false;
  });

  window.TabletopGame = {
    view: () => view,
    act: (action) => T.post(root.dataset.actUrl, { action }),
  };
  connect();
})();
