/* 2 1 6's board, drawn from the seat's view: the grid and the die, the roll (for a seated player
   or the host while the game waits on the die), the empty cells the mover may write in, each
   player's tally (how the total is made up, and the projected total) and every line with who
   dominates it. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h } = K;

  function isChance(view, ctx) {
    return !ctx.replay && (view.to_act || []).includes(-1);
  }

  function myTurn(view, ctx) {
    return !ctx.replay && view.you !== null && view.you !== undefined
      && (view.to_act || []).includes(view.you);
  }

  /* The die while the game waits on it: a random roll, or the value a real die shows. */
  function rollCard(view, ctx) {
    const seated = view.you !== null && view.you !== undefined;
    if (!isChance(view, ctx) || !(seated || ctx.isHost)) return null;
    const rollFor = view.roll_for || {};
    const name = rollFor.seat === undefined ? "" : view.seats[rollFor.seat];
    if (!ctx.isHost && rollFor.seat !== view.you) {
      /* another player's roll: theirs (or the host's) to enter, not this phone's */
      return h("div", { class: "card roll waiting" },
        h("p", {}, ctx.t(rollFor.purpose === "handicap" ? "rolling_handicap" : "rolling", { name })));
    }
    const faces = [];
    for (let value = 1; value <= Number(view.die_faces || 6); value += 1) {
      faces.push(h("button", { type: "button", class: "secondary", dataset: { chance: "roll " + value } },
        String(value)));
    }
    return h("div", { class: "moves card roll" },
      h("h2", {}, ctx.t(rollFor.purpose === "handicap" ? "roll_for_handicap" : "roll_for", { name })),
      h("button", { type: "button", class: "big", dataset: { chanceRandom: "1" } }, ctx.t("roll_die")),
      h("p", { class: "muted" }, ctx.t("or_enter_die")),
      h("div", { class: "die-buttons" }, faces));
  }

  /* The grid: owned cells in their owner's colour; the empty ones are buttons for the mover
     holding a roll. Described again only when a cell, the mover's choice or the players'
     colours changed (a roll changes none of them on the other phones), and then each cell
     keyed by its place: an update touches only the cells that changed. */
  function grid(view, ctx) {
    const placing = myTurn(view, ctx) && Boolean(view.pending_roll);
    const colours = JSON.stringify(view.colours || null);
    return K.memo(JSON.stringify(["dice216-grid", view.size, view.cells, placing, view.seats, colours]),
      () => drawGrid(view, ctx, placing, colours));
  }

  function drawGrid(view, ctx, placing, colours) {
    const cells = [];
    (view.cells || []).forEach((row, r) => row.forEach((cell, c) => {
      const key = r + "," + c;
      // a cell's description depends on these alone: kept while they stay the same
      const state = cell ? [cell.owner, cell.value, view.seats[cell.owner], colours].join("|") : placing;
      cells.push(K.memo("dice216-cell|" + key + "|" + state, () => {
        if (cell) {
          return h("div", { key, class: "cell owned", style: K.seatStyle(cell.owner, view),
            dataset: { shape: K.seatShape(cell.owner) }, title: view.seats[cell.owner],
            role: "img", "aria-label": ctx.t("cell_holds", { row: r + 1, column: c + 1, n: cell.value, name: view.seats[cell.owner] }) },
          String(cell.value));
        }
        if (placing) {
          return h("button", { key, type: "button", class: "cell empty",
            dataset: { action: `place ${r + 1} ${c + 1}` },
            "aria-label": ctx.t("cell_at", { row: r + 1, column: c + 1 }) });
        }
        return h("div", { key, class: "cell" });
      }));
    }));
    return h("div", { class: "grid216", style: { "--n": String(view.size) } }, cells);
  }

  /* Each player's points: lines, bonus, area and handicap (when played), the total so far and
     the projected total. */
  function tally(view, ctx) {
    const seats = view.seats || [];
    const options = view.options || {};
    const breakdown = view.breakdown || [];
    const part = (seat, key) => (breakdown[seat] || {})[key];
    const row = (label, values, cls) => h("tr", { class: cls || null }, h("td", {}, label),
      values.map((value) => h("td", {}, value)));
    const rows = [
      h("tr", {}, h("th", {}), seats.map((name, seat) => h("th", { scope: "col" }, K.seatChip(view, seat)))),
      row(ctx.t(options.diagonals ? "line_points_with_diagonals" : "line_points"),
        seats.map((_, seat) => String(part(seat, "lines") ?? 0))),
      row(ctx.t("bonus"), seats.map((_, seat) => String(part(seat, "bonus") ?? 0))),
    ];
    if (view.area) {
      rows.push(row(ctx.t("area_group"), seats.map((_, seat) => String((view.area.groups || [])[seat] ?? 0)), "area-groups"));
      rows.push(row(ctx.t("area"), seats.map((_, seat) => String(part(seat, "area") ?? 0))));
    }
    if (view.handicap) {
      rows.push(row(ctx.t("handicap"), seats.map((_, seat) => seat === view.handicap.seat
        ? (view.handicap.roll === null || view.handicap.roll === undefined ? "…" : String(view.handicap.roll))
        : "—"), "handicap"));
    }
    rows.push(row(ctx.t("total"), (view.totals || []).map((value) => h("b", {}, String(value))), "totals"));
    const projecting = !view.final && !view.outcome && view.status !== "finished" && (view.projected || []).length;
    if (projecting) {
      rows.push(row(ctx.t("projected"), view.projected.map((value) => Number(value).toFixed(1)), "projected"));
    }
    return [
      h("h2", {}, ctx.t("tally")),
      h("table", { class: "facts-table" }, rows),
      projecting ? h("p", { class: "muted small" },
        ctx.t("projected_help", { mean: (Number(view.die_faces || 6) + 1) / 2 })) : null,
    ];
  }

  /* Every scored line: its name (a diagonal with its direction and first cell), who dominates
     it, what it scores and its bonus. */
  function linesTable(view, ctx) {
    const options = view.options || {};
    const lines = view.lines || [];
    const head = h("tr", {},
      h("th", {}, ctx.t(options.diagonals ? "line_with_diagonals" : "line")),
      h("th", {}, ctx.t("dominator")), h("th", {}, ctx.t("total")), h("th", {}, ctx.t("bonus")));
    // a number written changes the few lines through its cell: each row kept while its line is
    const players = JSON.stringify([view.seats, view.you, view.colours]);
    const rows = lines.map((line) => K.memo(JSON.stringify(["dice216-line", line]) + players, () => h("tr", {
      key: `${line.kind} ${line.index}`, dataset: { line: `${line.kind} ${line.index}` } },
    h("td", {}, ctx.t("line_" + line.kind) + " " + line.index,
      line.direction ? [" ", h("span", { class: "muted" },
        `${line.direction} ${line.cells[0][0]},${line.cells[0][1]}`)] : null),
    h("td", {}, line.dominator === null || line.dominator === undefined
      ? "—" : K.seatChip(view, line.dominator)),
    h("td", {}, String(line.dominator === null || line.dominator === undefined ? line.sum : line.total)),
    h("td", {}, line.bonus ? String(line.bonus) : ""))));
    return h("div", { class: "lines", style: { "--rows": String(lines.length + 2) } },
      h("p", { class: "muted small" }, ctx.t("nobody_scores")),
      h("table", { class: "lines-table" }, head, rows));
  }

  /* The results' figures: cells written and lines dominated. */
  function stats(view, ctx) {
    const seats = view.seats || [];
    const cells = (view.cells || []).flat().filter(Boolean);
    return [
      { label: ctx.t("cells_written"), values: seats.map((_, seat) => cells.filter((c) => c.owner === seat).length) },
      { label: ctx.t("lines_dominated"), values: seats.map((_, seat) => (view.lines || []).filter((l) => l.dominator === seat).length) },
    ];
  }

  function render(view, ctx) {
    return h("div", { class: "board dice216", dataset: { viewVersion: view.version } },
      K.facts(
        `${view.size}×${view.size} · d${view.die_faces}`,
        ctx.t("turn") + " " + view.turn,
        view.pending_roll ? h("span", { class: "die-face" }, String(view.pending_roll)) : null),
      K.outcomeBox(view, ctx, stats),
      K.waitingFor(view, ctx),
      rollCard(view, ctx),
      myTurn(view, ctx) && view.pending_roll
        ? h("p", { class: "hint" }, ctx.t("place_hint", { n: view.pending_roll })) : null,
      grid(view, ctx),
      K.part("dice216-tally", [view.seats, view.colours, view.you, view.options, view.breakdown, view.area,
        view.handicap, view.totals, view.projected, view.final, Boolean(view.outcome), view.status,
        view.die_faces], () => tally(view, ctx)),
      K.part("dice216-lines", [view.seats, view.colours, view.you, view.options, view.lines],
        () => linesTable(view, ctx)),
      K.hostTools(view, ctx));
  }

  /* A move's action as words ("play 5 x2" → ["play", "5", "x2"]). */
  function moveWords(move) {
    return String(move.action || move.verb).split(/\s+/);
  }

  /* Each move in words: the die's value, then who wrote it where. */
  function describe(moves, view, ctx, from = 0) {
    let roll = null;  // the die's last roll before ``from``
    for (let i = from - 1; i >= 0 && roll === null; i -= 1) {
      const words = moveWords(moves[i]);
      if (words[0] === "roll") roll = words[1];
    }
    return moves.slice(from).map((move) => {
      const words = moveWords(move);
      if (words[0] === "roll") {
        roll = words[1];
        return ctx.t("move_roll", { n: words[1] });
      }
      if (words[0] === "place") {
        return ctx.t("move_place", { name: (view.seats || [])[move.seat], n: roll ?? "?", row: words[1], column: words[2] });
      }
      return ctx.t("move_generic", { name: (view.seats || [])[move.seat], action: move.action || move.verb });
    });
  }

  /* Each player's total after every number written (the move log's public figures). */
  function progress(moves, view, ctx) {
    const series = {};
    (view.seats || []).forEach((_, seat) => { series[seat] = [0]; });
    const labels = ["0"];
    for (const move of moves) {
      if (move.verb !== "place" || !Array.isArray(move.scores)) continue;
      move.scores.forEach((value, seat) => { if (series[seat]) series[seat].push(Number(value) || 0); });
      labels.push(String(labels.length));
    }
    if (labels.length < 2) return null;
    return { title: ctx.t("totals_chart"), series, labels };
  }

  window.TabletopBoards.register("dice216", { render, describe, progress });
})();
