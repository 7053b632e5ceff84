/* Hacktrick's board, drawn from the seat's view: the round, the deck and each player's excellence
   points; how the last round was won; a deck rebuilt, a hand shown, a declaration in force; the
   magic square with its cursor markers; the card row and the cards out of the round; what each
   player holds; the player's own hand and the card picker (a card, then how to play it); and
   (below the board, game.js) the rounds chart. Nothing here can show more than the view holds:
   a hand's cards are in the view only for its holder. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h } = K;

  function name(view, seat) {
    return (view.seats || [])[seat];
  }

  function dataCard(value, extra) {
    return h("span", { class: "data-card" + (extra ? " " + extra : "") }, String(value));
  }

  /* The legal actions grouped by card ("play 3 …", "lead 3"), and the others ("ask", "draw …"). */
  function cardMoves(legal) {
    const cards = new Map();
    const others = [];
    for (const action of legal) {
      const words = action.split(/\s+/);
      if (words.length >= 2 && (words[0] === "play" || words[0] === "lead") && /^\d+$/.test(words[1])) {
        const declare = words.find((w) => w.startsWith("declare="));
        const value = Number(words[1]);
        if (!cards.has(value)) cards.set(value, []);
        cards.get(value).push({ action, verb: words[0], x2: words.includes("x2"),
          declare: declare ? declare.slice("declare=".length) : null });
      } else {
        others.push(action);
      }
    }
    return { cards: [...cards.keys()].sort((a, b) => a - b).map((value) => ({ value, actions: cards.get(value) })),
      others };
  }

  /* An action that is not a card's, in words: "Ask the sum", "Draw a card · declare Play!". */
  function otherLabel(action, ctx) {
    const words = action.split(/\s+/);
    const declare = words.find((w) => w.startsWith("declare="));
    const label = ctx.t("action_" + words[0]);
    return declare ? label + " · " + ctx.t("declare_" + declare.slice("declare=".length)) : label;
  }

  function variantLabel(card, move, ctx) {
    return ctx.t("verb_" + move.verb) + " " + card.value + (move.x2 ? " ×2" : "")
      + (move.declare ? " · " + ctx.t("declare_" + move.declare) : "");
  }

  /* Show the ways to play the picked card, and mark it. */
  function pick(event) {
    const button = event.currentTarget;
    const board = button.closest(".board");
    for (const group of board.querySelectorAll("[data-variants]")) {
      group.hidden = group.dataset.variants !== button.dataset.pick;
    }
    for (const other of board.querySelectorAll("[data-pick]")) {
      other.classList.toggle("selected", other === button);
      other.setAttribute("aria-pressed", String(other === button));
    }
  }

  /* How the last round was won: the sentence, and — while the next round has nothing on the
     board yet, or when the game is over — a small square with the winning squares marked in the
     winner's colour, so the table sees what won before the board is cleared. */
  function lastRound(view, ctx) {
    const last = view.last_round;
    if (!last) return null;
    const squares = (last.squares || []).join(ctx.t("list_separator"));
    const sentence = [ctx.t("round_won", { round: last.round, name: name(view, last.winner), points: last.points }),
      " — ", ctx.t("round_end." + last.reason, { squares })];
    const boardEmpty = Object.values(view.board || {}).every((markers) => !markers.length);
    if (!boardEmpty && !view.outcome) return h("p", { class: "muted last-round" }, sentence);
    const won = new Set((last.squares || []).map(Number));
    return h("div", { class: "card round-result", role: "status" },
      h("h2", {}, ctx.t("round_result", { round: last.round })),
      h("div", { class: "mini-magic", "aria-hidden": "true" }, (view.layout || []).flat().map((square) =>
        h("span", { class: "mini-square" + (won.has(square) ? " won" : ""),
          style: won.has(square) ? K.seatStyle(last.winner, view) : null }, String(square)))),
      h("p", { class: "last-round" }, sentence));
  }

  function events(view, ctx) {
    const shown = view.shown;
    const declaration = view.declaration;
    return [
      view.reshuffled ? h("p", { class: "reshuffled" },
        ctx.t("deck_rebuilt", { name: name(view, view.reshuffled.seat), n: view.reshuffled.cards })) : null,
      shown ? h("p", { class: "shown" }, ctx.t("hand_shown", { name: name(view, shown.seat) }), ": ",
        shown.cards.map((v) => dataCard(v, "small"))) : null,
      declaration ? h("p", { class: "declaration" },
        ctx.t("declared_" + declaration.kind, { name: name(view, declaration.by) })) : null,
    ];
  }

  /* The magic square as laid out on the table, each square with its markers (in the pieces'
     colours, white and red, with the owner's initial; ×2 marked); at the game's end the squares
     of the winning round are marked. */
  function magicSquare(view, ctx) {
    const board = view.board || {};
    const won = new Set(view.outcome && view.last_round ? (view.last_round.squares || []).map(Number) : []);
    return h("div", { class: "magic", role: "group", "aria-label": ctx.t("magic_square") },
      (view.layout || []).flat().map((square) => {
        const markers = board[String(square)] || [];
        const said = markers.map((m) => name(view, m.owner) + (m.x2 ? " ×2" : "")).join(", ");
        return h("div", { key: square, class: "square" + (won.has(square) ? " won" : ""), dataset: { square },
          role: "img", "aria-label": ctx.t("square_holds", { square, markers: said || "—" }) },
        h("span", { class: "n" }, String(square)),
        h("span", { class: "markers" }, markers.map((m) =>
          h("span", { class: "marker" + (m.x2 ? " x2" : ""), style: K.seatStyle(m.owner, view),
            title: name(view, m.owner) }, m.x2 ? "×2" : String(name(view, m.owner) || "").slice(0, 1)))));
      }));
  }

  function cardRow(view, ctx) {
    const row = view.row || [];
    return [
      h("h2", {}, ctx.t("row")),
      h("div", { class: "card-row" }, row.length
        ? row.map((v, i) => dataCard(v, i === row.length - 1 ? "rightmost" : ""))
        : h("span", { class: "muted" }, "—")),
      (view.face_up || []).length ? h("p", { class: "muted face-up" }, ctx.t("face_up"), ": ",
        view.face_up.map((v) => dataCard(v, "small"))) : null,
    ];
  }

  /* What each player holds, in public: hand size, the last hand sum announced, markers. */
  function holdings(view, ctx) {
    const seats = view.seats || [];
    const row = (label, cell) => h("tr", {}, h("td", {}, ctx.t(label)),
      seats.map((_, seat) => h("td", {}, cell(seat))));
    const supply = (seat) => (view.supply || [])[seat] || {};
    return h("table", { class: "facts-table" },
      h("tr", {}, h("th", {}), seats.map((who, seat) => h("th", { scope: "col" }, K.seatChip(view, seat)))),
      row("hand_size", (seat) => String(((view.hands || [])[seat] || {}).size ?? "—")),
      row("announced_sum", (seat) => {
        const said = (view.announced_sums || [])[seat];
        return said === null || said === undefined ? "—" : String(said);
      }),
      row("markers_left", (seat) => {
        const s = supply(seat);  // own counts the ×2 marker when it is still in the supply
        return ctx.t(s.x2 ? "markers_with_x2" : "markers_n", { n: s.own });
      }),
      row("captured", (seat) => {
        const s = supply(seat);
        return ctx.t(s.captured_x2 ? "markers_with_x2" : "markers_n", { n: s.captured });
      }));
  }

  /* The player's own hand while it is not their move (the picker shows it when it is). */
  function myHand(view, ctx, moves) {
    if (view.you === null || view.you === undefined || moves.cards.length) return null;
    const cards = ((view.hands || [])[view.you] || {}).cards;
    if (!Array.isArray(cards)) return null;
    return [h("h2", {}, ctx.t("your_hand")),
      h("div", { class: "hand" }, cards.map((v) => dataCard(v, "big-card")))];
  }

  /* Why a card of the hand cannot be played now. */
  function whyNot(value, view, ctx) {
    if (view.rightmost !== null && view.rightmost !== undefined && Number(value) === Number(view.rightmost)) {
      return ctx.t("cannot_play_rightmost", { card: value });
    }
    return ctx.t("cannot_play_now");
  }

  /* The mover's choices: pick a card — every card of the hand, duplicates too, those that cannot
     be played disabled with the reason — then one of its ways to play; and the other actions.
     Keyed by the choices: a card picked stays picked while they stay the same, and a new set of
     choices is drawn afresh (nothing picked). */
  function moveCard(view, ctx, moves) {
    if (ctx.replay || !(view.legal_actions || []).length) return null;
    const hand = ((view.hands || [])[view.you] || {}).cards;
    const playable = new Map(moves.cards.map((card) => [card.value, card]));
    const shown = Array.isArray(hand) && moves.cards.length
      ? [...hand].sort((a, b) => a - b) : moves.cards.map((card) => card.value);
    return h("div", { key: JSON.stringify([view.legal_actions, hand || null, view.rightmost ?? null]),
      class: "moves card" },
      h("h2", {}, ctx.t("your_move")),
      moves.cards.length ? [
        h("p", { class: "muted" }, Array.isArray(hand)
          ? ctx.t("your_hand") + " · " + ctx.t("pick_card") : ctx.t("pick_table_card")),
        h("div", { class: "pick-cards" }, shown.map((value, index) => {
          const can = playable.has(value);
          const why = can ? null : whyNot(value, view, ctx);
          return h("span", { class: "pick-slot" },
            h("button", { class: "data-card big-card pick" + (can ? "" : " unplayable"), type: "button",
              "aria-pressed": can ? "false" : null, disabled: !can,
              "aria-describedby": can ? null : `why-${index}`,
              dataset: { pick: value }, onclick: can ? pick : null }, String(value)),
            can ? null : h("span", { class: "why", id: `why-${index}` }, why));
        })),
        moves.cards.map((card) => h("div", { class: "variants", dataset: { variants: card.value }, hidden: true },
          card.actions.map((move) => h("button", { type: "button", dataset: { action: move.action } },
            variantLabel(card, move, ctx))))),
      ] : null,
      h("div", { class: "other-moves" }, moves.others.map((action) =>
        h("button", { type: "button", class: "secondary", dataset: { action } }, otherLabel(action, ctx)))));
  }

  /* Each player's excellence points, round by round: the page's progress chart, drawn below
     the board while it is in sight (game.js). */
  function progress(moves, view, ctx) {
    const rounds = view.rounds || [];
    if (!rounds.length) return null;
    const series = {};
    (view.seats || []).forEach((_, seat) => { series[seat] = [0]; });
    for (const result of rounds) {
      for (const seat of Object.keys(series)) {
        const values = series[seat];
        const gained = Number(seat) === result.winner ? Number(result.points || 0) : 0;
        values.push(values[values.length - 1] + gained);
      }
    }
    return { title: ctx.t("rounds_chart"), series,
      labels: ["0", ...rounds.map((r, i) => String(r.round ?? i + 1))] };
  }

  /* The results' figures: rounds won and cursor markers taken. */
  function stats(view, ctx) {
    const seats = view.seats || [];
    const rounds = view.rounds || [];
    return [
      { label: ctx.t("rounds_won"), values: seats.map((_, seat) => rounds.filter((r) => r.winner === seat).length) },
    ];
  }

  function render(view, ctx) {
    const moves = cardMoves(ctx.replay ? [] : (view.legal_actions || []));
    const target = (view.options || {}).target;
    return h("div", { class: "board hacktrick", dataset: { viewVersion: view.version } },
      K.facts(
        ctx.t("round") + " " + view.round,
        ctx.t("deck") + ": " + view.deck_size,
        view.starter !== null && view.starter !== undefined
          ? ctx.t("round_starter") + ": " + name(view, view.starter) : null,
        ...(view.points || []).map((p, seat) => h("span", {
          class: "seat-chip claimed" + (seat === view.you ? " me" : ""),
          style: K.seatStyle(seat, view) },
        ctx.t("points_of", { name: name(view, seat), points: p, target })))),
      K.outcomeBox(view, ctx, stats),
      K.waitingFor(view, ctx),
      lastRound(view, ctx),
      events(view, ctx),
      K.part("hacktrick-square", [view.layout, view.board, view.seats, view.colours,
        view.outcome && view.last_round ? view.last_round.squares : null], () => magicSquare(view, ctx)),
      K.part("hacktrick-row", [view.row, view.face_up], () => cardRow(view, ctx)),
      K.part("hacktrick-holdings", [view.seats, view.colours, view.you,
        (view.hands || []).map((hand) => (hand || {}).size), view.announced_sums, view.supply],
      () => holdings(view, ctx)),
      myHand(view, ctx, moves),
      moveCard(view, ctx, moves),
      K.hostTools(view, ctx));
  }

  /* A move's action as words ("play 5 x2" → ["play", "5", "x2"]). */
  function moveWords(move) {
    return String(move.action || move.verb).split(/\s+/);
  }

  /* Each move from ``from`` on in words ("Dan plays 5 on square 8, ×2, declares Play!"): the
     square is the card plus the row's rightmost card before it, the last card led or played. */
  function describe(moves, view, ctx, from = 0) {
    let rightmost = null;
    for (let i = from - 1; i >= 0 && rightmost === null; i -= 1) {
      const words = moveWords(moves[i]);
      if (words[0] === "lead" || words[0] === "play") rightmost = Number(words[1]);
    }
    return moves.slice(from).map((move) => {
      const who = name(view, move.seat);
      const words = moveWords(move);
      const declare = (words.find((w) => w.startsWith("declare=")) || "").slice("declare=".length);
      const tail = (words.includes("x2") ? ctx.t("move_x2") : "") + (declare ? ctx.t("move_declares_" + declare) : "");
      if (words[0] === "lead") {
        rightmost = Number(words[1]);
        return ctx.t("move_lead", { name: who, card: words[1] });
      }
      if (words[0] === "play") {
        const card = Number(words[1]);
        const square = rightmost === null ? "?" : card + rightmost;
        rightmost = card;
        return ctx.t("move_play", { name: who, card, square }) + tail + ctx.t("move_end");
      }
      if (words[0] === "draw") return ctx.t("move_draw", { name: who }) + tail + ctx.t("move_end");
      if (words[0] === "ask") return ctx.t("move_ask", { name: who });
      return ctx.t("move_generic", { name: who, action: move.action || move.verb });
    });
  }

  window.TabletopBoards.register("hacktrick", { render, describe, progress });
})();
