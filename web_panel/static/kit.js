/* The board kit: what every game's board script draws with. A board is a function of the seat's
   view (render(view, ctx) -> a DOM node): the page's first drawing and every live update call the
   same function, so they cannot drift. No framework, no build step. */
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  /* Seat colours, in seat order (red, blue, yellow, green, …); a game may draw its own pieces'. */
  const SEAT_COLOURS = ["#d93838", "#2f6fd6", "#e0b000", "#2e9e4f", "#8e44ad", "#e67e22",
    "#16a0a0", "#c2185b"];

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function set(node, attrs) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "style" && typeof value === "object") {
        for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
      } else if (name === "dataset") {
        for (const [key, v] of Object.entries(value)) node.dataset[key] = String(v);
      } else if (name.startsWith("on") && typeof value === "function") {
        node.addEventListener(name.slice(2), value);
      } else if (name === "text") {
        node.textContent = String(value);
      } else {
        node.setAttribute(name, value === true ? "" : String(value));
      }
    }
    return node;
  }

  /* An HTML element: h("p", {class: "muted"}, "text", child, …). */
  function h(tag, attrs, ...children) {
    return append(set(document.createElement(tag), attrs), children);
  }

  /* An SVG element. */
  function s(tag, attrs, ...children) {
    return append(set(document.createElementNS(SVG, tag), attrs), children);
  }

  function seatColour(seat) {
    return seat === null || seat === undefined || seat < 0 ? "#777777"
      : SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  /* A seat's chip: the player's name in their colour (bold outline for "me"). */
  function seatChip(view, seat, extra) {
    const cls = ["seat-chip", "claimed", seat === view.you ? "me" : "", extra || ""].join(" ").trim();
    return h("span", { class: cls, style: { "--seat": seatColour(seat) } }, (view.seats || [])[seat]);
  }

  /* The game's outcome: winners (or nobody), the reason in the page's language. */
  function outcomeBox(view, ctx) {
    if (view.outcome) {
      const outcome = view.outcome;
      const winners = outcome.winners || [];
      return h("div", { class: "outcome card" },
        h("h2", {}, ctx.t("game_over")),
        winners.length
          ? h("p", { class: "winners" }, ctx.t("winners"), ": ", winners.map((w) => seatChip(view, w, "winner")))
          : h("p", { class: "winners" }, ctx.t("no_winner")),
        h("p", { class: "muted reason" }, reasonText(view, ctx)),
        ctx.tournament ? h("p", {},
          h("a", { class: "button", href: ctx.urls.tournament }, ctx.t("standings")), " ",
          h("a", { class: "button secondary", href: ctx.urls.home }, ctx.t("nav_games"))) : null);
    }
    if (view.status === "abandoned") return h("div", { class: "outcome card" }, h("h2", {}, ctx.t("abandoned")));
    return null;
  }

  /* The outcome's reason: the game's words for it, blanks filled from the outcome (a seat's
     number becomes the player's name). */
  function reasonText(view, ctx) {
    const outcome = view.outcome || {};
    const values = {};
    for (const [key, value] of Object.entries(outcome)) {
      values[key] = Array.isArray(value) ? value.join(", ") : value;
    }
    if ((outcome.winners || []).length) values.winner = view.seats[outcome.winners[0]];
    return ctx.t("reason." + outcome.reason, values);
  }

  /* Who the game waits for. */
  function waitingFor(view, ctx) {
    if (view.outcome || view.status !== "active") return null;
    return h("p", { class: "to-act" }, ctx.t("waiting_for"), ": ",
      (view.to_act || []).map((seat) => seat < 0
        ? h("span", { class: "seat-chip chance" }, ctx.t("the_die"))
        : seatChip(view, seat)));
  }

  /* The host's undo and abandon, on a game in play. */
  function hostTools(view, ctx) {
    if (!ctx.isHost || view.status !== "active" || ctx.replay) return null;
    return h("div", { class: "card host-bar" },
      h("h2", {}, ctx.t("host_tools")),
      h("button", { class: "secondary", dataset: { hostPost: ctx.urls.undo }, disabled: !view.can_undo }, ctx.t("undo")),
      h("button", { class: "danger", dataset: { hostPost: ctx.urls.abandon, confirm: ctx.t("confirm_abandon") } },
        ctx.t("abandon")));
  }

  /* A line chart of each seat's score: series {seat: [values…]}, one label per point. */
  function chart(view, series, labels, ctx) {
    const seats = Object.keys(series).map(Number);
    if (!seats.length || labels.length < 2) return null;
    const W = 320, H = 170, LEFT = 34, RIGHT = 8, TOP = 10, BOTTOM = 22;
    const all = seats.flatMap((seat) => series[seat]);
    const low = Math.min(0, ...all);
    const high = Math.max(1, ...all);
    const span = Math.max(labels.length - 1, 1);
    const x = (i) => LEFT + ((W - LEFT - RIGHT) * i) / span;
    const y = (v) => TOP + ((H - TOP - BOTTOM) * (high - v)) / (high - low);
    const ticks = [...new Set([low, 0, high])].sort((a, b) => a - b);
    const every = Math.max(1, Math.floor(labels.length / 8));
    return h("figure", { class: "chart" },
      s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": ctx.t("score_chart") },
        s("line", { class: "axis", x1: LEFT, y1: H - BOTTOM, x2: W, y2: H - BOTTOM }),
        s("line", { class: "axis", x1: LEFT, y1: 0, x2: LEFT, y2: H - BOTTOM }),
        ticks.map((v) => [
          s("line", { class: "grid", x1: LEFT, x2: W, y1: y(v), y2: y(v) }),
          s("text", { class: "tick", x: LEFT - 4, y: y(v) + 4, "text-anchor": "end" }, String(v))]),
        labels.map((label, i) => (i % every === 0 || i === labels.length - 1)
          ? s("text", { class: "tick", x: x(i), y: H - 6, "text-anchor": "middle" }, label) : null),
        seats.map((seat) => s("polyline", {
          points: series[seat].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
          stroke: seatColour(seat) }))),
      h("figcaption", {}, seats.map((seat) => h("span", { class: "legend", style: { "--seat": seatColour(seat) } },
        view.seats[seat], " ", String(series[seat][series[seat].length - 1])))));
  }

  /* Facts in a row of small boxes. */
  function facts(...items) {
    return h("div", { class: "facts" }, items.filter((i) => i !== null && i !== undefined && i !== false)
      .map((i) => (i instanceof Node ? i : h("span", {}, String(i)))));
  }

  /* A part of a board that depends only on ``key`` (the data it shows, as text): built once,
     then the very same node is reused by the next drawing that has the same key — the old
     board it sat in is thrown away, so the node moves into the new one. The DOM is the same as
     building it again; the cost of a live update is only what changed. */
  const parts = new Map();
  const PARTS = 400;
  function memo(key, build) {
    let node = parts.get(key);
    // a node already placed in the board being built (detached, with a parent) is not reused
    if (node === undefined || (node.parentNode && !node.isConnected)) node = build();
    if (!(node instanceof Node)) return node;  // nothing to draw: nothing to keep
    parts.delete(key);
    parts.set(key, node);
    if (parts.size > PARTS) parts.delete(parts.keys().next().value);
    return node;
  }

  /* Boards by game id; each game's script registers its own. */
  const boards = {};
  function register(game, board) { boards[game] = board; }
  function board(game) { return boards[game] || boards["*"]; }

  window.TabletopKit = { h, s, memo, seatColour, seatChip, outcomeBox, reasonText, waitingFor, hostTools, chart, facts };
  window.TabletopBoards = { register, board };
})();
