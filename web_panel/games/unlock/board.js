/* UNLOCK's board, drawn from the seat's view: the player's own cards, how many codes still fit,
   the score track (−10…100, extended when a score leaves it), the public clue board laid out by
   matches as on the table, and (below the board, game.js) the score chart. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h, s } = K;
  const cards = new Map();  // a code's card never changes: described once, then shared
  // drawn, not an emoji: a browser without an emoji font (Debian's Chromium on a Pi) shows a box
  const OPEN_LOCK = s("svg", { class: "icon", viewBox: "0 0 16 16", "aria-hidden": "true" },
    s("path", { d: "M4.5 7V5a3.5 3.5 0 0 1 6.8-1.2", fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    s("rect", { x: 3, y: 7, width: 10, height: 8, rx: 1.5 }));

  /* A code drawn on a size×size card: its lines, its dots, a ring on its first dot. */
  function codeCard(code, size) {
    const key = size + ":" + code;
    if (!cards.has(key)) cards.set(key, drawCard(code, size));
    return cards.get(key);
  }

  /* Few elements per card (a card is drawn for every clue): the lines as one path, the dots as
     two (used and not), the ring on the first dot. */
  function drawCard(code, size) {
    const cell = 20, pad = 10;
    const point = (dot) => [pad + ((dot - 1) % size) * cell, pad + Math.floor((dot - 1) / size) * cell];
    const dots = String(code || "").split("-").map(Number).filter((d) => d >= 1 && d <= size * size);
    const used = new Set(dots);
    const extent = 2 * pad + (size - 1) * cell;
    const ring = (dot, r) => {
      const [x, y] = point(dot);
      return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
    };
    const all = [];
    for (let dot = 1; dot <= size * size; dot += 1) all.push(dot);
    const start = dots.length ? point(dots[0]) : null;
    return s("svg", { class: "code-card", viewBox: `0 0 ${extent} ${extent}`, role: "img", "aria-label": code },
      dots.length > 1 ? s("path", { class: "lines", d: dots.map((dot, i) => (i ? "L" : "M") + point(dot).join(",")).join("") }) : null,
      s("path", { class: "dots", d: all.filter((dot) => !used.has(dot)).map((dot) => ring(dot, 2.2)).join("") }),
      dots.length ? s("path", { class: "dots used", d: dots.filter((dot, i) => dots.indexOf(dot) === i).map((dot) => ring(dot, 3.2)).join("") }) : null,
      start ? s("circle", { cx: start[0], cy: start[1], r: 5, class: "start" }) : null);
  }

  function myCard(caption, code, size, secret) {
    return h("figure", { class: "my-card" + (secret ? " secret" : "") },
      h("figcaption", {}, caption), codeCard(code, size), h("code", {}, code));
  }

  /* The score track: −10…100 in rows of ten, extended to any score outside that range; each
     cell holds the guessers standing on it (the Lock does not score). */
  function scoreTrack(view, ctx) {
    const open = Boolean(ctx.table) || trackOpen;
    return K.part("unlock-track", [view.scores, view.lock, view.seats, view.you, Boolean(ctx.table), open],
      () => drawTrack(view, ctx, open));
  }

  /* Whether this phone has the track's fold open: its cells (111 and more) are drawn only
     then, as the move log's entries are, not on every first visit and update. */
  let trackOpen = false;
  document.addEventListener("toggle", (event) => {
    const fold = event.target;
    if (!(fold instanceof HTMLDetailsElement) || !fold.classList.contains("track-box")) return;
    if (trackOpen === fold.open) return;
    trackOpen = fold.open;
    if (window.TabletopGame) window.TabletopGame.draw();
  }, true);  // "toggle" does not bubble: heard on its way down

  function drawTrack(view, ctx, open) {
    const scores = {};
    (view.scores || []).forEach((value, seat) => {
      if (seat !== view.lock && Number.isInteger(value)) scores[seat] = value;
    });
    const values = Object.values(scores);
    let low = Math.min(-10, ...values);
    const high = Math.max(100, ...values);
    low -= ((low % 10) + 10) % 10;
    const rows = [];
    for (let start = low; open && start <= high; start += 10) {
      const cells = [];
      for (let value = start; value < Math.min(start + 10, high + 1); value += 1) {
        const here = Object.keys(scores).map(Number).filter((seat) => scores[seat] === value);
        // a cell changes only when a pawn comes or goes: the others stay as they were
        const pawns = here.map((seat) => [seat, view.seats[seat], K.seatColour(seat, view)].join(":")).join();
        cells.push(K.memo("unlock-cell|" + value + "|" + pawns, () => h("div", { key: value,
          class: "track-cell" + (value === 0 ? " zero" : "") + (value < 0 ? " negative" : ""),
          role: "cell", dataset: { value } },
        h("span", { class: "n" }, String(value)),
        here.map((seat) => h("span", { class: "pawn", style: K.seatStyle(seat, view), title: view.seats[seat] },
          String(view.seats[seat]).slice(0, 1))))));
      }
      rows.push(h("div", { key: start, class: "track-row", role: "row" }, cells));
    }
    /* The scores in one line; the whole track folded away below them (it is tall on a phone;
       the table screen shows it open). */
    return h("div", { class: "track-part" },
      h("h2", {}, ctx.t("scores")),
      h("ul", { class: "scores" }, Object.keys(scores).map(Number).map((seat) => h("li", {},
        K.seatChip(view, seat), " ", h("b", { class: "score", dataset: { seat } }, String(scores[seat]))))),
      h("details", { class: "track-box", open: Boolean(ctx.table) },
        h("summary", {}, ctx.t("score_track")),
        h("div", { class: "track", role: "table", "aria-label": ctx.t("score_track") }, rows)));
  }

  /* The clue board as laid on the table: a column per matches value (0…5 always, more when a
     card has them), cards in turn order; described again only when the board changes, and then
     each card already laid is the one described before (K.memo): a round revealed builds its
     new cards, and patching does not look inside the others. */
  function clueBoard(view, ctx) {
    const board = view.clue_board || [];
    const size = Number(view.size || 3);
    // after the game, the card that drew the secret code is marked: the code that opened it
    const opened = view.outcome && view.secret ? view.secret : null;
    return K.part("unlock-board", [board, size, view.seats, view.colours, opened],
      () => drawBoard(board, size, opened, view, ctx));
  }

  function drawBoard(board, size, opened, view, ctx) {
    const top = Math.max(5, ...board.map((card) => Number(card.matches || 0)));
    const latest = board.length ? Math.max(...board.map((card) => Number(card.turn || 0))) : 0;
    const columns = [];
    for (let m = 0; m <= top; m += 1) columns.push([]);
    for (const card of board) {
      columns[Number(card.matches || 0)].push(clueCard(card, view, ctx, size,
        Number(card.turn) === latest, card.code === opened));
    }
    return [
      h("h2", {}, ctx.t("clue_board")),
      board.length ? null : h("p", { class: "muted" }, ctx.t("no_clues")),
      h("div", { class: "clue-board", style: { "--columns": String(top + 1) } },
        columns.map((cards, m) => h("div", { key: m, class: "clue-column", dataset: { matches: m },
          role: "list", "aria-label": ctx.t("matches_n", { n: m }) },
        h("div", { class: "clue-head", "aria-hidden": "true" }, String(m)), cards))),
    ];
  }

  /* One clue card: its code drawn, who said it and when, its matches, misses and points.
     Described once (K.memo), and what it shows kept when it stops being the latest card: only
     the card's own element is described again then. */
  function clueCard(card, view, ctx, size, latest, opened) {
    const name = view.seats[card.seat];
    const key = JSON.stringify(["unlock-card", card, size, opened, name, K.seatColour(card.seat, view)]);
    const face = K.memo(key, () => [
      opened ? h("div", { class: "opened-tag", "aria-hidden": "true" }, OPEN_LOCK, ctx.t("opened_lock")) : null,
      codeCard(card.code, size),
      h("div", { class: "clue-meta" }, String(name).slice(0, 6),
        " ", h("span", { class: "muted" }, "T" + card.turn)),
      h("div", { class: "clue-meta" }, h("span", { class: "ok" }, "✓" + card.matches),
        " ", h("span", { class: "bad" }, "✗" + card.misses),
        " ", h("b", {}, (card.points >= 0 ? "+" : "") + (card.points || 0))),
    ]);
    return K.memo(key + "|" + latest, () => h("div", { key: card.turn + ":" + card.seat,
      class: "clue-card" + (latest ? " latest" : "") + (opened ? " opened" : ""), role: "listitem",
      style: K.seatStyle(card.seat, view),
      "aria-label": ctx.t("clue_said", { name, turn: card.turn, code: card.code,
        matches: card.matches, misses: card.misses, points: card.points })
        + (opened ? " " + ctx.t("opened_lock") : "") }, face));
  }

  /* Each guesser's running score, turn by turn, from the clue board: the page's progress
     chart, drawn below the board while it is in sight (game.js). */
  function progress(moves, view, ctx) {
    const board = view.clue_board || [];
    const turns = [...new Set(board.map((card) => Number(card.turn || 0)))].sort((a, b) => a - b);
    if (!turns.length) return null;
    const series = {};
    (view.seats || []).forEach((_, seat) => { if (seat !== view.lock) series[seat] = [0]; });
    const running = {};
    for (const seat of Object.keys(series)) running[seat] = 0;
    for (const turn of turns) {
      for (const card of board) {
        if (Number(card.turn) === turn && card.seat in running) running[card.seat] += Number(card.points || 0);
      }
      for (const seat of Object.keys(series)) series[seat].push(running[seat]);
    }
    return { title: ctx.t("score_chart"), series, labels: ["0", ...turns.map(String)] };
  }

  /* The results' figures: codes drawn, the best card's matches, and the hints each guesser
     asked for (the box's own players ask for none). */
  function stats(view, ctx) {
    const board = view.clue_board || [];
    const seats = view.seats || [];
    const mine = (seat) => board.filter((card) => card.seat === seat);
    const used = view.hints && Array.isArray(view.hints.used) ? view.hints.used : null;
    const bot = (seat) => Array.isArray(view.bots) && view.bots[seat];
    return [
      { label: ctx.t("codes_drawn"), values: seats.map((_, seat) => (seat === view.lock ? "—" : mine(seat).length)) },
      { label: ctx.t("best_matches"), values: seats.map((_, seat) => (seat === view.lock ? "—"
        : Math.max(0, ...mine(seat).map((card) => Number(card.matches || 0))))) },
      used ? { label: ctx.t("hints_used"), key: "hints", values: seats.map((_, seat) => (seat === view.lock || bot(seat) ? "—"
        : Number(used[seat] || 0))) } : null,
    ];
  }

  function render(view, ctx) {
    const size = Number(view.size || 3);
    const options = view.options || {};
    const guesses = (view.guesses || []).filter((g) => g.code);
    return h("div", { class: "board unlock", dataset: { viewVersion: view.version } },
      K.facts(
        ctx.t("turn") + " " + view.turn + (options.turn_limit ? " / " + options.turn_limit : ""),
        ctx.t("difficulty_" + view.difficulty),
        size + "×" + size,
        view.lock !== null && view.lock !== undefined
          ? h("span", {}, ctx.t("the_lock") + ": ", h("b", {}, view.seats[view.lock])) : null),
      K.outcomeBox(view, ctx, stats),
      K.waitingFor(view, ctx),
      (view.submitted || []).length ? h("p", { class: "submitted" }, ctx.t("submitted") + ": ",
        view.submitted.map((seat) => K.seatChip(view, seat, "", true))) : null,
      h("div", { class: "mine" },
        view.secret ? myCard(ctx.t("the_secret"), view.secret, size, true) : null,
        view.my_guess ? myCard(ctx.t("your_guess"), view.my_guess, size, false) : null,
        guesses.map((g) => myCard(view.seats[g.seat], g.code, size, false))),
      view.codes_remaining !== undefined && view.codes_remaining !== null && !view.outcome
        ? h("p", { class: "remaining" }, ctx.t("codes_remaining", { n: view.codes_remaining })) : null,
      scoreTrack(view, ctx),
      clueBoard(view, ctx),
      K.hostTools(view, ctx));
  }

  /* Each move from ``from`` on in words; a code another player may not see yet is not named. */
  function describe(moves, view, ctx, from = 0) {
    return moves.slice(from).map((move) => {
      const name = (view.seats || [])[move.seat];
      const code = move.action ? move.action.split(" ").slice(1).join(" ") : null;
      const kind = move.verb === "secret" ? "move_secret" : "move_guess";
      return ctx.t(code ? kind + "_code" : kind, { name, code });
    });
  }

  window.TabletopBoards.register("unlock", { render, describe, progress });
})();
