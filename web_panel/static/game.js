/* A game page: the phone's own view, drawn by the game's board script, kept live by the event
   stream (the whole view, or a delta of it), with polling while the stream is down; actions,
   rolls and the host's tools. The stream resumes from the last version seen (Last-Event-ID)
   after sleep, reload or the server ending a long stream.

   Around the board (never inside it: the board is a function of the view alone) the page keeps
   the move log — fetched from where it got to, never resent whole —, the last move in words,
   the game's progress chart, a "your turn" cue (the title, a vibration where the phone allows,
   a sound if switched on), and at the game's end the way on: into the tournament's next game
   (or the host's "play again") in the same seat, without joining again. */
"use strict";
(function () {
  const T = window.Tabletop;
  const K = window.TabletopKit;
  const root = document.getElementById("game");
  if (!root) return;
  const page = JSON.parse(document.getElementById("game-data").textContent);
  const board = document.getElementById("board");
  const banner = document.getElementById("reconnecting");
  const live = document.getElementById("live");
  const baseTitle = document.title;
  let view = JSON.parse(document.getElementById("view-data").textContent);
  let source = null;
  let pollTimer = null;
  let failures = 0;

  const ctx = {
    gameId: page.game_id,
    info: page.info,
    isHost: page.is_host,
    replay: page.replay,
    table: page.table,
    tournament: page.tournament,
    urls: page.urls,
    t: (key, values) => T.message(key, values),
    act: (action) => T.post(page.urls.act, { action }),
    chance: (body) => T.post(page.urls.chance, body),
  };

  function renderer() {
    return window.TabletopBoards.board(page.game);
  }

  /* Draw the board for the current view: the same call for the first drawing and updates (the
     board's description applied to the DOM: only what changed is touched). A board script that
     still returns a DOM node has it put in place of the last. */
  function draw() {
    K.patch(board, renderer().render(view, ctx));
    root.dataset.version = String(view.version);
    document.dispatchEvent(new CustomEvent("tabletop:view", { detail: view }));
  }

  /* Apply a delta (web_panel/view_delta.py): ["s", path, value] sets, ["d", path] deletes.
     A new view, ``target`` left as it was (as view_delta.apply_delta): the objects and lists
     on a changed path are copied, once each, and the rest shared. */
  function applyDelta(target, ops) {
    const fresh = new Set();
    const own = (node) => {
      if (fresh.has(node)) return node;
      const copy = Array.isArray(node) ? node.slice() : { ...node };
      fresh.add(copy);
      return copy;
    };
    let whole = target;
    for (const op of ops) {
      const path = op[1];
      if (path.length === 0) { whole = op[2]; fresh.add(whole); continue; }
      whole = own(whole);
      let node = whole;
      for (const key of path.slice(0, -1)) { node[key] = own(node[key]); node = node[key]; }
      const last = path[path.length - 1];
      if (op[0] === "d") {
        if (Array.isArray(node)) node.splice(last, 1); else delete node[last];
      } else {
        node[last] = op[2];
      }
    }
    return whole;
  }

  function myTurn(v) {
    return v.you !== null && v.you !== undefined && v.status === "active"
      && (v.to_act || []).includes(v.you);
  }

  /* A new view; ``log``: the moves a stream's delta carries with it, if any (takeMoves). */
  function publish(fresh, log) {
    const before = myTurn(view);
    const ended = view.status === "active" && fresh.status !== "active";
    view = fresh;
    draw();
    if (!takeMoves(log)) refreshMoves(log === undefined);
    turnCue(before);
    followWhenOver(ended);
    followAnalysis(ended);
  }

  /* --- "your turn" ------------------------------------------------------------------------ */
  const soundKey = "tt_sound";
  const soundButton = document.getElementById("sound-toggle");
  // The phone's choice, read from its storage once (each read of the storage can wait for the
  // browser): kept here, and read again when another tab of the same phone changes it.
  let sound = null;
  function soundOn() {
    if (sound === null) sound = Boolean(window.localStorage) && localStorage.getItem(soundKey) === "on";
    return sound;
  }
  function showSound() {
    if (!soundButton) return;
    soundButton.setAttribute("aria-pressed", String(soundOn()));
    soundButton.textContent = T.message(soundOn() ? "sound_on" : "sound_off");
  }
  if (soundButton) {
    soundButton.addEventListener("click", () => {
      sound = !soundOn();
      localStorage.setItem(soundKey, sound ? "on" : "off");
      showSound();
    });
    window.addEventListener("storage", (event) => {
      if (event.key === soundKey || event.key === null) { sound = null; showSound(); }
    });
  }

  function beep() {
    try {
      const Audio = window.AudioContext || window.webkitAudioContext;
      if (!Audio) return;
      const audio = beep.context || (beep.context = new Audio());
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (err) { /* no sound on this phone */ }
  }

  let shownTitle = baseTitle;
  function turnCue(before) {
    if (page.replay) return;
    const now = myTurn(view);
    const title = now ? "● " + T.message("your_move") + " · " + baseTitle : baseTitle;
    if (shownTitle !== title) { document.title = title; shownTitle = title; }
    if (document.body.classList.contains("my-turn") !== now) document.body.classList.toggle("my-turn", now);
    if (now && !before) {
      if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) {
        navigator.vibrate([120, 60, 120]);
      }
      if (soundOn()) beep();
    }
  }

  /* --- the move log, the last move, the progress chart ------------------------------------ */
  const moves = [];
  let movesBusy = false;
  let movesAgain = false;
  let movesWhole = false;
  const lastMove = document.getElementById("last-move");
  const log = document.getElementById("move-log");
  const logList = document.getElementById("move-list");
  const progress = document.getElementById("progress");

  /* The moves from ``from`` on in words (the game's own describer, else who did what); the
     moves before are there for a describer whose words for a move depend on them. */
  function describe(list, from = 0) {
    const words = renderer().describe;
    const count = list.length - from;
    if (typeof words !== "function") {
      return list.slice(from).map((move) => T.message("move_generic", { name: moveWho(move), action: move.action || move.verb }));
    }
    const texts = words(list, view, ctx, from);
    return texts.length === count ? texts : texts.slice(texts.length - count);  // a describer of every move
  }

  /* The moves in words, kept: a move's words never change, so a change describes only the
     moves it brought (a log of hundreds is not put into words again at every move). */
  const texts = [];
  function keepMoves(count) {
    moves.length = count;
    if (texts.length > count) texts.length = count;
  }
  function movesInWords() {
    if (texts.length < moves.length) texts.push(...describe(moves, texts.length));
    return texts;
  }

  function moveWho(move) {
    return move.seat < 0 ? T.message("the_die") : (view.seats || [])[move.seat];
  }

  /* The moves a delta carries, [the log's length they follow, the moves after it]
     (web_panel/view_events.py), taken in the same task as the board is drawn: one restyle and
     layout for both, and no request. [0, null]: the log no longer begins as this page has it
     (an undo), so it is asked for whole. False when the log is to be asked for. */
  function takeMoves(log) {
    if (page.replay || !Array.isArray(log)) return false;
    const [from, fresh] = log;
    if (!Array.isArray(fresh)) { keepMoves(0); return false; }
    if (movesBusy || moves.length < from) return false;  // the log asked for is on its way
    keepMoves(from);
    moves.push(...fresh);
    drawExtras();
    return true;
  }

  /* Asks for the moves after those the page has; ``whole``: for the whole log, the page's
     perhaps no longer being how it begins (a whole view came, with no word of an undo). */
  async function refreshMoves(whole) {
    if (page.replay || !page.urls.moves) return;
    if (whole) movesWhole = true;
    if (movesBusy) { movesAgain = true; return; }
    movesBusy = true;
    const had = moves.length;
    const since = movesWhole ? 0 : had;
    movesWhole = false;
    let taken = false;
    try {
      const response = await fetch(withParam(page.urls.moves, "since", since), { credentials: "same-origin" });
      if (response.ok) {
        const fresh = await response.json();
        if (moves.length !== had) {
          movesAgain = true;  // the log was started again meanwhile (an undo): ask again
        } else {
          keepMoves(since);
          moves.push(...fresh);
          taken = true;
          if (fresh.length === 400) movesAgain = true;
          drawExtras();
        }
      }
    } catch (err) { /* offline: the next change asks again */ }
    if (!taken && since === 0) movesWhole = true;  // the whole log is still to be asked for
    movesBusy = false;
    if (movesAgain) { movesAgain = false; refreshMoves(); }
  }

  /* The log's entries, by step: a move already in the log keeps its description, so patching
     the log touches only the new entries (and the one that stops being the latest). */
  const logItems = new Map();

  function logItem(move, text, latest) {
    const known = logItems.get(move.step);
    if (known && known.text === text && known.latest === latest && known.time === move.time) return known.item;
    const item = h("li", { key: move.step, class: latest ? "latest" : null, value: String(move.step) },
      h("span", {}, text), " ", timeTag(move.time));
    logItems.set(move.step, { text, latest, time: move.time, item });
    return item;
  }

  /* The log, while it is open (folded away it is drawn when opened). */
  function drawLog(texts) {
    if (!logList || (log && !log.open)) return;
    if (logItems.size > moves.length) logItems.clear();
    K.patch(logList, texts.map((text, i) => logItem(moves[i], text, i === texts.length - 1)));
    // the new entries' times (the others are kept fresh by the page's clock)
    T.freshenTimes([...logList.getElementsByTagName("time")].filter((node) => !node.textContent));
  }
  if (log) log.addEventListener("toggle", () => { if (log.open) drawLog(movesInWords()); });

  function drawExtras() {
    const texts = movesInWords();
    if (lastMove) {
      lastMove.hidden = !moves.length;
      K.patch(lastMove, moves.length ? [h("b", {}, T.message("last_move") + ": "), texts[texts.length - 1]] : []);
    }
    if (log) log.hidden = !moves.length;
    drawLog(texts);
    drawProgress();
  }

  /* The progress chart, drawn while it is on the screen. Below the board on a phone, it is out
     of sight for most of a game: a move then only marks it out of date, and it is drawn again as
     it is scrolled to (the table screen shows it always). The first drawing is made wherever it
     is, so the chart's place, title and legend are on the page from the start (nothing moves
     as it comes into sight, and a screen reader finds it where it is). */
  let progressInSight = !window.IntersectionObserver;
  let progressStale = false;
  if (progress && !progressInSight) {
    new IntersectionObserver((entries) => {
      progressInSight = entries[entries.length - 1].isIntersecting;
      if (progressInSight && progressStale) drawProgress();
    }).observe(progress);
  }

  function drawProgress() {
    if (!progress) return;
    progressStale = !progressInSight && progress.firstChild !== null;
    if (progressStale) return;
    const made = typeof renderer().progress === "function" ? renderer().progress(moves, view, ctx) : null;
    // the same figures (a roll adds none): the same description, skipped whole
    K.patch(progress, made ? K.memo(JSON.stringify(["progress", made, view.seats, view.colours || null]),
      () => [h("h2", {}, made.title), K.chart(view, made.series, made.labels, ctx)]) : []);
  }

  function h(tag, attrs, ...children) { return K.h(tag, attrs, ...children); }

  /* ``url`` with ``name=value`` added to its query (the table screen's URLs have one). */
  function withParam(url, name, value) {
    return url + (url.includes("?") ? "&" : "?") + name + "=" + encodeURIComponent(value);
  }

  function timeTag(stamp) {
    return h("time", { datetime: stamp, "data-ago": "", class: "muted small" }, "");
  }

  /* --- the way on: the next game in the same seat --------------------------------------- */
  /* ``justEnded``: the game ended while the page watched. Only a tournament can have its next
     game then; the host's "play again" comes after the end, so outside a tournament the first
     ask waits one round of asking (the host is found as soon as before: asks at 3, 6, 9 s
     rather than 0, 3, 6, 9 s, the first of which could never find one). */
  let following = false;
  const FOLLOW_EVERY = 3000;
  async function followWhenOver(justEnded) {
    if (page.replay || following || view.status === "active" || !page.urls.next) return;
    following = true;
    if (justEnded && !page.tournament) await new Promise((resolve) => { setTimeout(resolve, FOLLOW_EVERY); });
    for (let tries = 0; tries < 400; tries += 1) {
      try {
        const response = await fetch(page.urls.next, { credentials: "same-origin" });
        const next = response.ok ? await response.json() : {};
        if (next.game_id) { await takeNext(next); return; }
      } catch (err) { /* offline: try again */ }
      await new Promise((resolve) => { setTimeout(resolve, FOLLOW_EVERY); });
    }
  }

  async function takeNext(next) {
    if (next.follow) {
      try {
        const reply = await T.post(next.follow, {});
        window.location.assign(reply.url);
        return;
      } catch (err) { T.showError(err); }
    }
    const note = document.getElementById("next-game");
    if (note) {
      note.hidden = false;
      K.patch(note, h("a", { class: "button big", href: next.url }, T.message("next_game")));
    }
  }

  /* --- the post-game analysis under the results ------------------------------------------
     Once the game has ended (never before: the box refuses), asked for a bounded number of
     times, as often as its Retry-After says while it is being computed; the board's results
     show its lines (kit.js, analysisLines). A game without one is never asked. A game that
     ended while the page watched has had its analysis begun by the box that very moment (it
     takes seconds: a child interpreter): the first ask waits as long as the box's Retry-After
     would have said, rather than being answered "not yet" while the results are drawn. */
  const ANALYSIS_TRIES = 20;
  const ANALYSIS_FIRST_WAIT = 2000;
  let analysisAsked = false;
  async function followAnalysis(justEnded) {
    if (page.replay || analysisAsked || view.status === "active" || !page.urls.analysis
      || !(page.info && page.info.analysis)) return;
    analysisAsked = true;
    if (justEnded) await new Promise((resolve) => { setTimeout(resolve, ANALYSIS_FIRST_WAIT); });
    for (let tries = 0; tries < ANALYSIS_TRIES; tries += 1) {
      let after = 2;
      try {
        const response = await fetch(page.urls.analysis, { credentials: "same-origin" });
        if (response.status === 200) {
          const found = await response.json();
          ctx.analysis = { headline: found.headline || "", lines: found.lines || [] };
          draw();
          return;
        }
        if (response.status !== 202) return;  // none for this game
        after = Number(response.headers.get("Retry-After")) || 2;
      } catch (err) { /* offline: ask again */ }
      await new Promise((resolve) => { setTimeout(resolve, Math.min(Math.max(after, 1), 10) * 1000); });
    }
  }

  /* --- the stream and the polling fallback -------------------------------------------- */
  function setConnected(ok) {
    banner.hidden = ok;
    live.classList.toggle("on", ok);
    document.body.classList.toggle("reconnecting", !ok);
  }

  async function poll() {
    try {
      const response = await fetch(page.urls.view, { credentials: "same-origin" });
      if (!response.ok) {
        // the journal was found damaged: the box now answers every page with its notice
        const body = response.status === 503 ? await response.json().catch(() => ({})) : {};
        if (body.error === "journal_damaged") window.location.reload();
        return;
      }
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
    source = new EventSource(withParam(page.urls.events, "since", view.version));
    let openedAt = 0;
    source.addEventListener("open", () => {
      openedAt = Date.now(); failures = 0; setConnected(true); stopPolling();
    });
    source.addEventListener("view", (event) => {
      const data = JSON.parse(event.data);
      if (data.version !== view.version) publish(data.view);
    });
    // the table screen (web_panel/table_stream.py) is to show another game: it loads it
    source.addEventListener("moved", () => { source.close(); window.location.reload(); });
    source.addEventListener("replaced", (event) => {
      const data = JSON.parse(event.data);
      T.showError(T.message("seat_replaced") || data.message, true);
    });
    source.addEventListener("delta", (event) => {
      const data = JSON.parse(event.data);
      if (data.base !== view.version) { poll(); return; }  // not the view it was made for
      publish(applyDelta(view, data.ops), data.moves);
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
      if (button) K.enable(button);
      return false;
    }
  }

  board.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]");
    if (action) { send(ctx.act(action.dataset.action), action); return; }
    const refused = event.target.closest("[data-refuse]");
    if (refused && typeof renderer().refusal === "function") {
      T.showError(renderer().refusal(view, refused.dataset.refuse, ctx));
      return;
    }
    const chance = event.target.closest("[data-chance]");
    if (chance) { send(ctx.chance({ action: chance.dataset.chance }), chance); return; }
    const random = event.target.closest("[data-chance-random]");
    if (random) send(ctx.chance({ roll: "random" }), random);
  });

  document.addEventListener("click", async (event) => {
    const again = event.target.closest("[data-play-again]");
    if (again) {
      again.disabled = true;
      try {
        const reply = await T.post(again.dataset.playAgain, {});
        window.location.assign(reply.url);
      } catch (err) { T.showError(err); K.enable(again); }
      return;
    }
    const hostButton = event.target.closest("[data-host-post]");
    if (!hostButton) return;
    if (hostButton.dataset.confirm && !window.confirm(hostButton.dataset.confirm)) return;
    await send(T.post(hostButton.dataset.hostPost, JSON.parse(hostButton.dataset.hostBody || "{}")), hostButton);
    K.enable(hostButton);  // as the board now describes it (an undo may have disabled it)
  });

  /* A replay: the step in words, and the chart of each seat's score after every step. */
  function replayPage() {
    if (!page.steps) return;
    const step = document.getElementById("step-words");
    if (step) {
      const index = Number(step.dataset.index);
      const list = page.steps.slice(1, index + 1).map((s, i) => ({ step: i + 1, seat: s.seat, verb: (s.action || "").split(" ")[0], action: s.action, by: s.by }));
      step.textContent = index === 0 ? T.message("start_of_game") : describe(list, list.length - 1)[0];
    }
    const box = document.getElementById("replay-chart");
    if (!box) return;
    const series = {};
    page.steps.forEach((s, index) => {
      const scores = s.scores || {};
      for (const [seat, value] of Object.entries(scores)) {
        if (typeof value !== "number") continue;
        if (!series[seat]) series[seat] = new Array(index).fill(value);
        series[seat].push(value);
      }
    });
    const labels = page.steps.map((_, i) => String(i));
    K.patch(box, K.chart(view, series, labels, ctx));
  }

  window.TabletopGame = { view: () => view, act: ctx.act, applyDelta, draw, ctx, replay: page.replay, moves: () => moves };
  // The game's own scripts load after this one; draw once they have registered the board.
  // The board first; what is around it (the stream, the move log, the sound switch, which
  // opens the phone's storage) in the next task, so the board is on the screen sooner.
  document.addEventListener("DOMContentLoaded", () => {
    draw();
    setTimeout(() => {
      replayPage(); turnCue(true); showSound(); connect(); refreshMoves(); followWhenOver();
      followAnalysis();
    }, 0);
  });
})();
