/* The board kit: what every game's board script draws with. A board is a function of the seat's
   view: render(view, ctx) describes the board with h() and s() (plain objects, cheap to make),
   and the page applies that description to the DOM with patch(): the first render builds every
   element, a live update changes only the attributes and texts that differ from the last
   description and adds, moves or removes only the elements that came or went. One function
   draws both, so they cannot drift, and an element that did not change stays the same node.

   Elements are matched to the last drawing by key: ``key`` given in the attributes (a cell, an
   edge, a card: unique among its siblings), else its tag and class, in order. No framework, no
   build step. */
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  /* Seat colours, in seat order (red, blue, yellow, green, …), when a game names none; a game
     whose view names its pieces' colours ("colours": ["white", "red"]) is drawn in those, so
     the phone shows the pieces on the table. Every colour has an ink (black or white, whichever
     reads better on it: WCAG AA), and every seat a shape, so seats are told apart without
     colour too. The four pieces' shades (red, blue, yellow, green) are picked to stay apart
     under protanopia, deuteranopia, tritanopia and in grey (tests/e2e/test_accessibility.py). */
  const SEAT_COLOURS = ["#b71c1c", "#1a237e", "#fdd835", "#66bb6a", "#8e44ad", "#e67e22",
    "#16a0a0", "#c2185b"];
  const NAMED = { white: "#f7f7f2", red: "#b71c1c", blue: "#1a237e", yellow: "#fdd835",
    green: "#66bb6a", black: "#222222" };
  const SHAPES = ["circle", "square", "triangle", "diamond"];
  /* An outcome's keys that list seats (a reason names those players). */
  const SEAT_LISTS = ["winners", "tied", "found_by"];

  /* --- descriptions ----------------------------------------------------------------------- */
  /* An element described: {tag, svg, key, attrs: {name: text}, on: {event: listener} | null,
     children: [element | text | DOM node]}. */
  function describe(tag, svg, attrs, children) {
    const el = { tag, svg, key: null, match: null, attrs: {}, on: null, children: [] };
    for (const name in attrs) {
      const value = attrs[name];
      if (value === null || value === undefined || value === false) continue;
      if ((typeof value === "string" || typeof value === "number") && name !== "key" && name !== "text") {
        el.attrs[name] = String(value);  // most attributes: a text or a number, as it is
      } else if (name === "key") {
        el.key = String(value);
      } else if (name === "style" && typeof value === "object") {
        const parts = [];
        for (const prop in value) parts.push(prop + ": " + value[prop] + ";");
        if (parts.length) el.attrs.style = parts.join(" ");
      } else if (name === "dataset") {
        for (const key in value) {
          const v = value[key];
          if (v !== null && v !== undefined) el.attrs["data-" + key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())] = String(v);
        }
      } else if (name.startsWith("on") && typeof value === "function") {
        (el.on || (el.on = {}))[name.slice(2)] = value;
      } else if (name === "text") {
        children = [value, ...children];
      } else {
        el.attrs[name] = value === true ? "" : String(value);
      }
    }
    flatten(children, el.children);
    return el;
  }

  /* Children as a flat list: nothing for null, undefined and false; texts side by side as one. */
  function flatten(items, out) {
    for (const item of items) {
      if (typeof item === "object" && item !== null) {  // an element described, a list, a node
        if (Array.isArray(item)) flatten(item, out); else out.push(item);
        continue;
      }
      if (item === null || item === undefined || item === false) continue;
      const text = String(item);
      const last = out.length - 1;
      if (last >= 0 && typeof out[last] === "string") out[last] += text; else out.push(text);
    }
    return out;
  }

  /* An HTML element: h("p", {class: "muted"}, "text", child, …). */
  function h(tag, attrs, ...children) {
    return describe(tag, false, attrs, children);
  }

  /* An SVG element. */
  function s(tag, attrs, ...children) {
    return describe(tag, true, attrs, children);
  }

  /* --- the DOM ------------------------------------------------------------------------------ */
  /* The DOM node for a description (a text, a described element, or a DOM node as it is). */
  function build(item) {
    if (typeof item === "string") return document.createTextNode(item);
    if (item instanceof Node) return item;
    const node = item.svg ? document.createElementNS(SVG, item.tag) : document.createElement(item.tag);
    const attrs = item.attrs;
    for (const name in attrs) node.setAttribute(name, attrs[name]);
    if (item.on) for (const type in item.on) node.addEventListener(type, item.on[type]);
    for (const child of item.children) node.appendChild(build(child));
    node._tt = item;
    return node;
  }

  /* How a node is matched with a description among its siblings (kept on the description). */
  function matchKey(item) {
    if (typeof item === "string") return "#text";
    const match = item.match;
    if (typeof match === "string") return match;  // a description matched before
    if (item instanceof Node) return item;
    if (match === null) {
      const tag = item.svg ? "svg:" + item.tag : item.tag;
      item.match = item.key !== null ? "#" + item.key + "#" + tag : tag + "." + (item.attrs.class || "");
    }
    return item.match;
  }

  function nodeKey(node) {
    if (node.nodeType === 3) return "#text";
    const item = node._tt;
    return item ? matchKey(item) : node;
  }

  /* Make ``parent``'s children those described (the same call for the first drawing and every
     update): matched nodes are updated in place, new ones built, the rest removed. */
  function patch(parent, ...children) {
    return reconcile(parent, flatten(children, []));
  }

  function refresh(node, item) {
    if (typeof item === "string") {
      if (node.data !== item) node.data = item;
    } else if (!(item instanceof Node)) {
      update(node, item);
    }
  }

  function reconcile(parent, wanted) {
    // as it was, in order (the usual update): each node brought up to date where it is, from
    // the start and then from the end, so that the change is found between the two
    let start = 0;
    let first = parent.firstChild;
    while (first && start < wanted.length && keep(first, wanted[start])) {
      first = first.nextSibling;
      start += 1;
    }
    if (first === null && start === wanted.length) return parent;
    const beforeFirst = first ? first.previousSibling : parent.lastChild;
    let end = wanted.length;
    let last = parent.lastChild;
    while (last !== beforeFirst && end > start && keep(last, wanted[end - 1])) {
      last = last.previousSibling;
      end -= 1;
    }
    const after = last === null ? parent.firstChild : last.nextSibling;  // the first kept at the end
    // the rest matched by key: kept nodes updated, new ones built, the others gone; of the kept
    // ones, the longest run already in order stays where it is and only the others move (a
    // few edges drawn last now: a few moves, not the whole list shifted)
    const pool = new Map();
    const order = new Map();
    for (let node = first; node !== after; node = node.nextSibling) {
      const key = nodeKey(node);
      const list = pool.get(key);
      if (list) list.push(node); else pool.set(key, [node]);
      order.set(node, order.size);
    }
    const nodes = new Array(end);
    for (let i = start; i < end; i += 1) {
      const list = pool.get(matchKey(wanted[i]));
      if (list && list.length) nodes[i] = list.shift();
    }
    for (const list of pool.values()) for (const node of list) parent.removeChild(node);
    const stays = inOrder(nodes, start, order);
    let anchor = after;  // every node between is placed: the last one first
    for (let i = end - 1; i >= start; i -= 1) {
      const item = wanted[i];
      let node = nodes[i];
      if (node === undefined) node = build(item); else refresh(node, item);
      if (!stays.has(i)) parent.insertBefore(node, anchor);
      anchor = node;
    }
    return parent;
  }

  /* Whether ``node`` stays for ``item`` where it is (brought up to date): the very description
     it was drawn from (K.memo), or one matched by the same key. */
  function keep(node, item) {
    if (node._tt === item) {
      enableAsDescribed(node, item);
      return true;
    }
    if (nodeKey(node) !== matchKey(item)) return false;
    refresh(node, item);
    return true;
  }

  /* The positions (from ``start``) of the kept nodes that form the longest run in their old
     order (``order``: node → old place), which need not move. */
  function inOrder(nodes, start, order) {
    const tails = [];
    const before = new Map();
    for (let i = start; i < nodes.length; i += 1) {
      if (nodes[i] === undefined) continue;
      const at = order.get(nodes[i]);
      let lo = 0;
      let hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (order.get(nodes[tails[mid]]) < at) lo = mid + 1; else hi = mid;
      }
      if (lo > 0) before.set(i, tails[lo - 1]);
      tails[lo] = i;
    }
    const stays = new Set();
    for (let i = tails[tails.length - 1]; i !== undefined; i = before.get(i)) stays.add(i);
    return stays;
  }

  /* A control the page disabled while its action was sent, enabled again — unless the board's
     last drawing describes it disabled (a live update may have come first). */
  function enable(node) {
    node.disabled = Boolean(node._tt && "disabled" in node._tt.attrs);
  }

  /* The controls a page disables, by the description's tag (asking the node costs a DOM call
     for every node of every drawing). */
  const CONTROLS = new Set(["button", "input", "select", "textarea", "fieldset"]);

  /* A button the page disabled while its action was sent: as described again. */
  function enableAsDescribed(node, item) {
    if (!item.svg && CONTROLS.has(item.tag) && node.disabled !== ("disabled" in item.attrs)) {
      node.disabled = "disabled" in item.attrs;
    }
  }

  /* Bring a node built from one description in line with the next. */
  function update(node, item) {
    const old = node._tt;
    if (old === item) { enableAsDescribed(node, item); return; }  // (K.memo): nothing in it changed
    const attrs = item.attrs;
    const before = old.attrs;
    // only the attributes that changed, came or went (an SVG line's coordinates set again would
    // lay it out again); their order in the markup may then differ from a first drawing's
    for (const name in attrs) if (before[name] !== attrs[name]) node.setAttribute(name, attrs[name]);
    for (const name in before) if (!(name in attrs)) node.removeAttribute(name);
    if (old.on || item.on) {
      const was = old.on || {};
      const now = item.on || {};
      for (const type in was) if (was[type] !== now[type]) node.removeEventListener(type, was[type]);
      for (const type in now) if (was[type] !== now[type]) node.addEventListener(type, now[type]);
    }
    enableAsDescribed(node, item);
    node._tt = item;
    const kids = item.children;
    const oldKids = old.children;
    if (kids.length === 1 && oldKids.length === 1 && typeof kids[0] === "string"
      && typeof oldKids[0] === "string" && node.childNodes.length === 1) {
      if (kids[0] !== oldKids[0]) node.firstChild.data = kids[0];  // a text changed
      return;
    }
    if (kids.length === oldKids.length && kids.every((kid, i) => kid === oldKids[i])
      && node.childNodes.length === kids.length) return;
    reconcile(node, kids);
  }

  function seatColour(seat, view) {
    if (seat === null || seat === undefined || seat < 0) return "#6b6b70";
    const named = view && Array.isArray(view.colours) ? NAMED[view.colours[seat]] : undefined;
    return named || SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  /* The relative luminance of a colour "#rrggbb" (WCAG 2). */
  function luminance(hex) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  /* Black or white, whichever contrasts more with ``hex``. */
  const inks = new Map();
  function inkOn(hex) {
    let ink = inks.get(hex);
    if (ink === undefined) {
      const l = luminance(hex);
      ink = (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) ? "#ffffff" : "#111111";
      inks.set(hex, ink);
    }
    return ink;
  }

  /* The CSS variables that draw a seat: its colour and its ink. */
  function seatStyle(seat, view) {
    const colour = seatColour(seat, view);
    return { "--seat": colour, "--seat-ink": inkOn(colour) };
  }

  /* A seat's shape (circle, square, triangle, diamond), for markers told apart without colour. */
  function seatShape(seat) {
    return SHAPES[((seat % SHAPES.length) + SHAPES.length) % SHAPES.length];
  }

  /* A marker of ``seat`` at (x, y) of radius r on an SVG drawing, in its seat's shape. */
  function markerShape(seat, view, x, y, r, attrs) {
    const fill = seatColour(seat, view);
    const base = { class: "marker", fill, "data-seat": seat, ...(attrs || {}) };
    const shape = seatShape(seat);
    const f = (v) => Number(v.toFixed(4));
    if (shape === "square") {
      return s("rect", { ...base, x: f(x - r * 0.85), y: f(y - r * 0.85), width: f(r * 1.7), height: f(r * 1.7) });
    }
    if (shape === "triangle") {
      return s("path", { ...base, d: `M${f(x)},${f(y - r * 1.1)}L${f(x + r)},${f(y + r * 0.75)}L${f(x - r)},${f(y + r * 0.75)}Z` });
    }
    if (shape === "diamond") {
      return s("path", { ...base, d: `M${f(x)},${f(y - r * 1.15)}L${f(x + r * 1.15)},${f(y)}L${f(x)},${f(y + r * 1.15)}L${f(x - r * 1.15)},${f(y)}Z` });
    }
    return s("circle", { ...base, cx: f(x), cy: f(y), r: f(r) });
  }

  /* A seat's chip: the player's name in their colour (bold outline for "me"). ``key``: a chip
     in a list that changes (who is still to act), keyed by its seat, so a player leaving the
     list takes only their own chip away. */
  function seatChip(view, seat, extra, key) {
    const cls = ["seat-chip", "claimed", seat === view.you ? "me" : "", extra || ""].join(" ").trim();
    return h("span", { key: key ? "seat" + seat : null, class: cls, style: seatStyle(seat, view), dataset: { seat } },
      (view.seats || [])[seat]);
  }

  /* The seats with the top score of the outcome (a tie names them): the outcome's own "tied"
     when it names them, else those sharing the highest score. */
  function topSeats(view) {
    const tied = (view.outcome || {}).tied;
    if (Array.isArray(tied) && tied.length) return tied;
    const scores = (view.outcome || {}).scores;
    if (!Array.isArray(scores) || !scores.length) return [];
    const numbers = scores.filter((v) => typeof v === "number");
    // a draw with no scores to compare (ICO's) ties nobody
    if (!numbers.length || (view.outcome.draw && numbers.every((v) => v === 0))) return [];
    const top = Math.max(...numbers);
    return scores.map((v, seat) => (v === top ? seat : null)).filter((seat) => seat !== null);
  }

  /* The results: who won (or who tied, named), why, and each player's figures — the score and
     the game's own (``stats(view, ctx)``: [{label, values: per seat}]; one figure and no score,
     a line; worked out only once the game has ended, not at every move) — then where to go
     on: the tournament's standings, play again (the host), the replay, the games. */
  function outcomeBox(view, ctx, stats) {
    if (view.outcome) {
      const outcome = view.outcome;
      const winners = outcome.winners || [];
      const tied = winners.length ? [] : topSeats(view);
      const scores = Array.isArray(outcome.scores) ? outcome.scores : null;
      const order = (view.seats || []).map((_, seat) => seat);
      if (scores) order.sort((a, b) => (Number(scores[b]) || 0) - (Number(scores[a]) || 0) || a - b);
      const rows = (stats ? stats(view, ctx) : []).filter((row) => row && Array.isArray(row.values));
      return h("div", { class: "outcome card", role: "status" },
        h("h2", {}, ctx.t("game_over")),
        winners.length
          ? h("p", { class: "winners" }, ctx.t("winners"), ": ", winners.map((w) => seatChip(view, w, "winner")))
          : tied.length > 1
            ? h("p", { class: "winners tied" }, ctx.t("tied"), ": ", tied.map((w) => seatChip(view, w)))
            : h("p", { class: "winners" }, ctx.t("no_winner")),
        h("p", { class: "reason" }, reasonText(view, ctx)),
        !scores && rows.length === 1 ? figureLine(view, rows[0], order, winners) : null,
        scores || rows.length > 1 ? h("table", { class: "results" },
          h("caption", { class: "visually-hidden" }, ctx.t("results")),
          h("tr", {}, h("th", { scope: "col" }, ctx.t("player")),
            scores ? h("th", { scope: "col" }, ctx.t("score")) : null,
            rows.map((row) => h("th", { scope: "col", dataset: row.key ? { stat: row.key } : null }, row.label))),
          order.map((seat) => h("tr", { class: winners.includes(seat) ? "winner-row" : null },
            h("th", { scope: "row" }, seatChip(view, seat, winners.includes(seat) ? "winner" : "")),
            scores ? h("td", {}, h("b", {}, String(scores[seat] ?? "—"))) : null,
            rows.map((row) => h("td", { dataset: row.key ? { stat: row.key, seat } : null },
              String(row.values[seat] ?? "—")))))) : null,
        analysisLines(view, ctx),
        nextSteps(view, ctx));
    }
    if (view.status === "abandoned") {
      return h("div", { class: "outcome card", role: "status" }, h("h2", {}, ctx.t("abandoned")),
        analysisLines(view, ctx), nextSteps(view, ctx));
    }
    return null;
  }

  /* A game's one figure, with no score beside it, as a line rather than a table of one
     column: "Markers placed: Aiko 14 · Ben 12". */
  function figureLine(view, row, order, winners) {
    return h("p", { class: "results-line" }, row.label, ": ", order.map((seat, i) => [i ? " · " : "",
      h("span", { class: "figure" }, seatChip(view, seat, winners.includes(seat) ? "winner" : ""), " ",
        h("b", { dataset: row.key ? { stat: row.key, seat } : null }, String(row.values[seat] ?? "—")))]));
  }

  /* The post-game analysis under the results, once it is ready (game.js asks for it when the
     game ends: ctx.analysis, {headline, lines: [{seat, text}]}, in the page's language); the
     replay page shows the whole analysis instead. */
  function analysisLines(view, ctx) {
    const found = ctx.analysis;
    if (ctx.replay || !found || !(found.lines || []).length) return null;
    return h("div", { class: "analysis-results", id: "analysis-results" },
      h("h3", {}, ctx.t("analysis_short_title")),
      found.headline ? h("p", { class: "analysis-headline" }, h("b", {}, found.headline)) : null,
      h("ul", { class: "analysis-lines" }, found.lines.map((line) => h("li",
        { key: "seat-" + line.seat, style: seatStyle(line.seat, view), dataset: { seat: line.seat } }, line.text))));
  }

  function nextSteps(view, ctx) {
    if (ctx.replay) return null;
    const urls = ctx.urls || {};
    return h("p", { class: "next-steps" },
      ctx.tournament && urls.tournament ? h("a", { class: "button", href: urls.tournament }, ctx.t("standings")) : null,
      !ctx.tournament && ctx.isHost && urls.again
        ? h("button", { type: "button", class: "big", dataset: { playAgain: urls.again } }, ctx.t("play_again")) : null,
      urls.replay && view.status !== "active" ? h("a", { class: "button secondary", href: urls.replay }, ctx.t("replay")) : null,
      urls.home ? h("a", { class: "button secondary", href: urls.home }, ctx.t("nav_games")) : null);
  }

  /* The outcome's reason: the game's words for it, blanks filled from the outcome (a seat's
     number becomes the player's name; {tied} names the players who share the top score). */
  function reasonText(view, ctx) {
    const outcome = view.outcome || {};
    const values = {};
    const names = (seats) => seats.map((seat) => view.seats[seat]).join(ctx.t("and_separator"));
    for (const [key, value] of Object.entries(outcome)) {
      values[key] = !Array.isArray(value) ? value
        : SEAT_LISTS.includes(key) ? names(value) : value.join(", ");
    }
    if ((outcome.winners || []).length) values.winner = view.seats[outcome.winners[0]];
    values.tied = names(topSeats(view));
    return ctx.t("reason." + outcome.reason, values);
  }

  /* Who the game waits for. */
  function waitingFor(view, ctx) {
    if (view.outcome || view.status !== "active") return null;
    return h("p", { class: "to-act" }, ctx.t("waiting_for"), ": ",
      (view.to_act || []).map((seat) => seat < 0
        ? h("span", { key: "die", class: "seat-chip chance" }, ctx.t("the_die"))
        : seatChip(view, seat, "", true)));
  }

  /* The host's undo and abandon, on a game in play; hints on or off for a game with hints. */
  function hostTools(view, ctx) {
    if (!ctx.isHost || view.status !== "active" || ctx.replay) return null;
    const hints = view.hints && ctx.urls.hints ? view.hints : null;
    return h("div", { class: "card host-bar" },
      h("h2", {}, ctx.t("host_tools")),
      hints ? h("p", { class: "hints-state" }, ctx.t(hints.allowed ? "hints_state_on" : "hints_state_off"), " ",
        h("button", { class: "secondary small", id: "host-hints",
          dataset: { hostPost: ctx.urls.hints, hostBody: JSON.stringify({ allowed: !hints.allowed }) } },
        ctx.t(hints.allowed ? "hints_turn_off" : "hints_turn_on"))) : null,
      h("button", { class: "secondary", dataset: { hostPost: ctx.urls.undo }, disabled: !view.can_undo }, ctx.t("undo")),
      h("button", { class: "danger", dataset: { hostPost: ctx.urls.abandon, confirm: ctx.t("confirm_abandon") } },
        ctx.t("abandon")));
  }

  /* The steps between two labelled ticks of a chart's x axis for ``steps`` steps: 1, 2, 3, 4,
     6, 8, 12, 16…, so that eight of them reach past the last step. */
  function tickEvery(steps) {
    for (let every = 1; ; every *= 2) {
      if (8 * every >= steps) return every;
      if (every > 1 && 12 * every >= steps) return (3 * every) / 2;
    }
  }

  /* The top of a chart's y axis for values up to ``value``: 1, 2 or 5 times a power of ten. */
  function niceCeiling(value) {
    let power = 1;
    while (power * 10 < value) power *= 10;
    return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= value);
  }

  /* A line chart of each seat's score: series {seat: [values…]}, one label per point. Players
     who share a score stay visible: each line has its own dash and its points the seat's shape,
     and lines on the same values are drawn side by side (a pixel or two apart). The axes end
     at round figures past the data (eight ticks of 1, 2, 3, 4, 6… steps; 1, 2 or 5 times a
     power of ten), so a point added moves no tick and no earlier point until the data reaches
     an axis's end. */
  function chart(view, series, labels, ctx) {
    const seats = Object.keys(series).map(Number);
    if (!seats.length || labels.length < 2) return null;
    const W = 320, H = 170, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 22;
    const all = seats.flatMap((seat) => series[seat]);
    const least = Math.min(0, ...all);
    const low = least < 0 ? -niceCeiling(-least) : 0;
    const high = niceCeiling(Math.max(1, ...all));
    const every = tickEvery(labels.length - 1);
    const span = 8 * every;
    const x = (i) => LEFT + ((W - LEFT - RIGHT) * i) / span;
    const y = (v) => TOP + ((H - TOP - BOTTOM) * (high - v)) / (high - low);
    const ticks = [...new Set([low, 0, high])].sort((a, b) => a - b);
    const DASHES = ["", "7 4", "2 3", "10 3 2 3"];
    const nudge = (index) => (index - (seats.length - 1) / 2) * 1.6;
    const dots = labels.length <= 24;
    return h("figure", { class: "chart" },
      s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": ctx.t("score_chart") },
        s("line", { class: "axis", x1: LEFT, y1: H - BOTTOM, x2: W, y2: H - BOTTOM }),
        s("line", { class: "axis", x1: LEFT, y1: 0, x2: LEFT, y2: H - BOTTOM }),
        ticks.map((v) => [
          s("line", { class: "grid", x1: LEFT, x2: W, y1: y(v), y2: y(v) }),
          s("text", { class: "tick", x: LEFT - 4, y: y(v) + 4, "text-anchor": "end" }, String(v))]),
        labels.map((label, i) => (i % every === 0
          ? s("text", { class: "tick", x: x(i), y: H - 6, "text-anchor": "middle" }, label) : null)),
        seats.map((seat, index) => s("g", { class: "series", "data-seat": seat },
          s("polyline", {
            points: series[seat].map((v, i) => `${x(i).toFixed(1)},${(y(v) + nudge(index)).toFixed(1)}`).join(" "),
            stroke: seatColour(seat, view), "stroke-dasharray": DASHES[index % DASHES.length] || null }),
          dots ? series[seat].map((v, i) => markerShape(seat, view, x(i), y(v) + nudge(index), 2.6,
            { class: "point", stroke: "#333", "stroke-width": 0.6 })) : null))),
      h("figcaption", {}, seats.map((seat) => h("span", { class: "legend", style: seatStyle(seat, view),
        dataset: { seat, shape: seatShape(seat) } },
        view.seats[seat], " ", String(series[seat][series[seat].length - 1])))));
  }

  /* Facts in a row of small boxes. */
  function facts(...items) {
    return h("div", { class: "facts" }, items.filter((i) => i !== null && i !== undefined && i !== false)
      .map((i) => (typeof i === "object" ? i : h("span", {}, String(i)))));
  }

  /* A part of a board that depends only on ``key`` (the data it shows, as text): described
     once, then the very same description is given to the next drawing that has the same key,
     and patch() skips it without looking inside. */
  const parts = new Map();
  const PARTS = 1000;
  function memo(key, build) {
    let part = parts.get(key);
    if (part === undefined) part = build();
    if (part === null || typeof part !== "object") return part;  // nothing to draw: nothing to keep
    parts.delete(key);
    parts.set(key, part);
    if (parts.size > PARTS) parts.delete(parts.keys().next().value);
    return part;
  }

  /* A part of a board drawn from ``inputs`` alone (the fields of the view it shows, as JSON):
     described again only when they change. Given again without a look inside while each input
     is the very object it was at the last drawing: a delta copies only what it changes, so
     most fields of the next view are the last one's (never changed in place). */
  const lastInputs = new Map();
  function part(name, inputs, build) {
    const last = lastInputs.get(name);
    if (last && last.inputs.length === inputs.length && inputs.every((input, i) => input === last.inputs[i])) {
      return last.part;
    }
    const made = memo(name + "|" + JSON.stringify(inputs), build);
    lastInputs.set(name, { inputs, part: made });
    return made;
  }

  /* Boards by game id; each game's script registers its own. */
  const boards = {};
  function register(game, board) { boards[game] = board; }
  function board(game) { return boards[game] || boards["*"]; }

  window.TabletopKit = { h, s, build, patch, enable, memo, part, seatColour, seatStyle, seatShape, markerShape,
    inkOn, seatChip, outcomeBox, reasonText, topSeats, waitingFor, hostTools, chart, facts };
  window.TabletopBoards = { register, board };
})();
