/* UNLOCK's pattern input: draw a code with a finger (pointer events) on the 3×3 or 4×4 dots —
   one stroke is one code: lifting the finger and drawing again starts a new code —, or press
   the dot buttons one by one (the keyboard's and screen reader's way). The rules of the game's
   level are checked live as a hint (auto-connection, used dots, dots crossed by a line with
   auto-connection off — refused and drawn crossed out —, line length on Easy, crossings, loops
   on Hard, repeats); the server decides, and its refusal is shown once, in the banner.

   A guesser still to draw this turn may ask for a hint (when the host allows them: the view's
   ``hints.allowed``): the answer of POST …/hint — for this seat alone, never in the stream —
   says how many codes are left and suggests one, drawn dashed under the dots until the turn
   changes; "Use this code" puts it in the input, or the player draws their own. */
"use strict";
(function () {
  const T = window.Tabletop;
  const G = window.TabletopGame;
  const K = window.TabletopKit;
  const boardNode = document.getElementById("board");
  if (!G || !boardNode || G.replay) return;
  // The pad's own elements, built once (the kit's descriptions made into DOM nodes).
  const h = (...args) => K.build(K.h(...args));
  // The pad sits above the board and outlives its redrawing: a code half drawn stays drawn.
  const pad = K.build(K.s("svg", { id: "pad", class: "pad", viewBox: "0 0 300 300", role: "img",
    "aria-label": T.message("pad_label") }));
  const title = h("h2", { id: "pad-title" }, T.message("draw_code"));
  const codeText = h("p", { id: "pad-code", class: "pad-code", "aria-live": "polite" });
  const hintText = h("p", { id: "pad-hint", class: "hint", "aria-live": "polite" });
  const undoButton = h("button", { class: "secondary", id: "pad-undo", type: "button" }, T.message("undo_dot"));
  const clearButton = h("button", { class: "secondary", id: "pad-clear", type: "button" }, T.message("clear"));
  const submit = h("button", { class: "big", id: "pad-submit", type: "button", disabled: true }, T.message("submit"));
  const dotButtons = h("div", { class: "dot-buttons", id: "dot-buttons", role: "group",
    "aria-label": T.message("dot_buttons") });
  const hintButton = h("button", { class: "secondary", id: "pad-hint-ask", type: "button", hidden: true },
    K.build(K.s("svg", { class: "icon", viewBox: "0 0 16 16", "aria-hidden": "true" },
      K.s("path", { d: "M8 1a5 5 0 0 0-3 9.1V12h6v-1.9A5 5 0 0 0 8 1z" }),
      K.s("rect", { x: 6, y: 13, width: 4, height: 2, rx: 0.6 }))), T.message("hint.ask"));
  const hintWords = h("p", { id: "pad-hint-words", class: "pad-tip-words" });
  const useButton = h("button", { class: "secondary", id: "pad-hint-use", type: "button" }, T.message("hint.use"));
  const hintBox = h("div", { id: "pad-tip", class: "pad-tip", role: "status", hidden: true }, hintWords, useButton);
  const card = h("section", { class: "card pad-card", id: "pad-card", hidden: true, "aria-labelledby": "pad-title" },
    title, pad, codeText, hintText, hintBox,
    h("details", { class: "dot-box", id: "dot-box" }, h("summary", {}, T.message("dot_buttons")), dotButtons),
    h("div", { class: "pad-buttons" }, undoButton, clearButton, hintButton, submit));
  boardNode.parentNode.insertBefore(card, boardNode);
  let size = 3;
  let path = [];
  let closed = false;
  let drawing = false;
  let refusal = "";
  let rubber = null;
  // The hint for this seat and position (the POST's answer): {position, codes_left, dots, suggestion}.
  let tip = null;
  let asking = false;

  const gcd = (a, b) => (b === 0 ? Math.abs(a) : gcd(b, a % b));
  const rowCol = (dot) => [Math.floor((dot - 1) / size), (dot - 1) % size];
  const spacing = () => 300 / size;
  const centre = (dot) => { const [r, c] = rowCol(dot); return [spacing() * (c + 0.5), spacing() * (r + 0.5)]; };

  function settings() {
    const view = G.view();
    const options = view.options || {};
    return {
      difficulty: view.difficulty || options.difficulty || "medium",
      autoConnect: options.auto_connect !== false,
    };
  }

  /* The dots strictly between a and b on the straight segment joining them. */
  function between(a, b) {
    const [r1, c1] = rowCol(a);
    const [r2, c2] = rowCol(b);
    const steps = gcd(r2 - r1, c2 - c1);
    const out = [];
    for (let k = 1; k < steps; k += 1) {
      out.push((r1 + ((r2 - r1) / steps) * k) * size + (c1 + ((c2 - c1) / steps) * k) + 1);
    }
    return out;
  }

  function lines(dots) {
    const out = [];
    for (let i = 1; i < dots.length; i += 1) out.push([dots[i - 1], dots[i]]);
    return out;
  }

  const lineKey = ([a, b]) => (a < b ? a + "-" + b : b + "-" + a);

  function orient(p, q, r) {
    const v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
    return Math.sign(v);
  }

  function crossing(list) {
    for (let i = 0; i < list.length; i += 1) {
      for (let j = i + 1; j < list.length; j += 1) {
        const [a, b] = list[i];
        const [c, d] = list[j];
        if (new Set([a, b, c, d]).size < 4) continue;
        const [pa, pb, pc, pd] = [a, b, c, d].map(rowCol);
        if (orient(pa, pb, pc) * orient(pa, pb, pd) < 0 && orient(pc, pd, pa) * orient(pc, pd, pb) < 0) {
          return [list[i], list[j]];
        }
      }
    }
    return null;
  }

  /* Expand a code's text the way the rules do (auto-connection), as a set of line keys (kept:
     every drawing checks the whole clue board for a repeat). */
  const expanded = new Map();
  function codeLines(text, autoConnect) {
    const key = size + "|" + autoConnect + "|" + text;
    if (expanded.has(key)) return expanded.get(key);
    const dots = String(text).split("-").map(Number);
    const keys = new Set();
    for (let i = 1; i < dots.length; i += 1) {
      const chain = autoConnect ? [dots[i - 1], ...between(dots[i - 1], dots[i]), dots[i]] : [dots[i - 1], dots[i]];
      for (const line of lines(chain)) keys.add(lineKey(line));
    }
    expanded.set(key, keys);
    return keys;
  }

  function problems() {
    const { difficulty } = settings();
    const list = lines(path);
    const out = [];
    if (list.length === 0) return out;
    if (difficulty === "easy") {
      for (const [a, b] of list) {
        const [r1, c1] = rowCol(a);
        const [r2, c2] = rowCol(b);
        if (Math.abs(r1 - r2) > 1 || Math.abs(c1 - c2) > 1) {
          out.push(T.message("hint_too_long", { line: a + "-" + b }));
        }
      }
    }
    if (difficulty !== "hard") {
      const pair = crossing(list);
      if (pair) out.push(T.message("hint_cross", { a: pair[0].join("-"), b: pair[1].join("-"), level: T.message("level_" + difficulty) }));
    }
    const mine = new Set(list.map(lineKey));
    const { autoConnect } = settings();
    for (const card of G.view().clue_board || []) {
      const theirs = codeLines(card.code, autoConnect);
      if (theirs.size === mine.size && [...mine].every((k) => theirs.has(k))) {
        out.push(T.message("hint_repeat", { code: card.code }));
        break;
      }
    }
    return out;
  }

  /* With auto-connection off, the dots the path's lines pass over, each with its line: they are
     crossed (seed 002: "The path can't cross the same dot twice"), never to be landed on or
     passed over again. With it on a stroke joins the dots it passes over: none is crossed. */
  function crossedDots() {
    const out = new Map();
    if (settings().autoConnect) return out;
    for (const line of lines(path)) for (const d of between(...line)) out.set(d, lineKey(line));
    return out;
  }

  function add(dot) {
    if (closed || dot < 1 || dot > size * size) return;
    if (path.length === 0) { path.push(dot); refusal = ""; return; }
    const last = path[path.length - 1];
    if (dot === last) return;
    const { difficulty, autoConnect } = settings();
    const middle = between(last, dot);
    const usedMiddle = middle.find((d) => path.includes(d));
    if (usedMiddle !== undefined) {
      refusal = T.message("hint_passes_used", { dot: usedMiddle });
      return;
    }
    const crossed = crossedDots();
    const again = middle.find((d) => crossed.has(d));
    if (again !== undefined) {
      refusal = T.message("hint_crosses_again", { dot: again, line: crossed.get(again) });
      return;
    }
    if (crossed.has(dot)) {
      refusal = T.message("hint_crossed", { dot, line: crossed.get(dot) });
      return;
    }
    if (path.includes(dot)) {
      const linesNow = path.length - 1 + (autoConnect ? middle.length : 0);
      if (dot === path[0] && difficulty === "hard" && linesNow + 1 >= 3) {
        if (autoConnect) path.push(...middle);
        path.push(dot);
        closed = true;
        refusal = "";
      } else {
        refusal = T.message(difficulty === "hard" ? "hint_used" : "hint_used_loop", { dot });
      }
      return;
    }
    if (autoConnect) path.push(...middle);
    path.push(dot);
    refusal = "";
  }

  /* The pad drawn through the kit (K.patch): its dots stay the same elements from one
     drawing to the next, and a drawing changes only what did (a turn that comes round with
     nothing drawn changes nothing on it). The rubber band follows the finger outside the
     kit, and every drawing hides it, as the finger's next move shows it again. */
  function draw() {
    const crossed = crossedDots();
    const list = lines(path);
    const r = spacing() * 0.16;
    K.patch(pad, ghost(),
      list.map(([a, b], i) => {
        const [x1, y1] = centre(a);
        const [x2, y2] = centre(b);
        return K.s("line", { key: "line:" + i, class: "pad-line", x1, y1, x2, y2 });
      }),
      K.s("line", { key: "rubber", class: "pad-rubber", visibility: "hidden" }),
      Array.from({ length: size * size }, (_, i) => {
        const dot = i + 1;
        const used = path.includes(dot) ? " used" : "";
        const start = path[0] === dot;
        // a dot described again only when it changes (a drawing changes a few)
        return K.memo(["pad-dot", size, dot, used, start, crossed.has(dot)].join("|"), () => {
          const [x, y] = centre(dot);
          return [
            K.s("circle", { key: "target:" + dot, class: "pad-target" + used, cx: x, cy: y,
              r: spacing() * 0.3, "data-dot": String(dot) }),
            K.s("circle", { key: "dot:" + dot, class: "pad-dot" + used + (start ? " start" : "")
              + (crossed.has(dot) ? " crossed" : ""), cx: x, cy: y,
              r: spacing() * (start ? 0.13 : 0.09) }),
            crossed.has(dot) ? K.s("path", { key: "crossed:" + dot, class: "pad-crossed", "data-dot": String(dot),
              d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}` }) : null,
          ];
        });
      }));
    rubber = pad.querySelector(".pad-rubber");
    if (rubber.getAttribute("visibility") !== "hidden") rubber.setAttribute("visibility", "hidden");
    drawButtons();
    setText(codeText, path.length ? path.join("-") : T.message("pad_empty"));
    codeText.classList.toggle("empty", path.length === 0);
    const found = problems();
    const hints = refusal ? [refusal, ...found] : found;
    setText(hintText, hints.join(" · ") || (list.length ? T.message("hint_ok") : ""));
    hintText.classList.toggle("bad", hints.length > 0);
    submit.disabled = list.length === 0;
    drawTip();
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  /* The position a hint answers: the game, its turn and the cards on the clue board. */
  function position(view) {
    return JSON.stringify([view.game_id, view.turn, (view.clue_board || []).length, size]);
  }

  /* Whether this seat may ask for a hint now: a guesser still to draw, hints allowed. */
  function mayAsk(view) {
    const hints = view.hints;
    return Boolean(hints && hints.allowed) && view.you !== view.lock
      && !(view.submitted || []).includes(view.you);
  }

  /* The suggested code, dashed under the player's own drawing (its start ringed). */
  function ghost() {
    if (!tip || !tip.dots || tip.dots.length < 2) return null;
    const points = tip.dots.map(centre);
    const [x, y] = points[0];
    return [
      K.s("polyline", { key: "ghost", class: "pad-ghost", points: points.map(([px, py]) => px + "," + py).join(" "),
        "data-code": tip.suggestion }, K.s("title", {}, T.message("hint.ghost", { code: tip.suggestion }))),
      K.s("circle", { key: "ghost-start", class: "pad-ghost-start", cx: x, cy: y, r: spacing() * 0.2 }),
    ];
  }

  function drawTip() {
    const view = G.view();
    hintButton.hidden = !mayAsk(view) || tip !== null;
    hintButton.disabled = asking;
    hintBox.hidden = tip === null && !asking;
    useButton.hidden = tip === null;
    if (tip === null) { hintWords.textContent = asking ? T.message("hint.asking") : ""; return; }
    const left = tip.codes_left === 1 ? T.message("hint.one_left")
      : T.message("hint.codes_left", { n: tip.codes_left });
    hintWords.textContent = left + " · " + T.message("hint.suggested", { code: tip.suggestion });
  }

  hintButton.addEventListener("click", async () => {
    const view = G.view();
    const asked = position(view);
    asking = true;
    drawTip();
    try {
      const answer = await T.post(G.ctx.urls.hint, {});
      if (position(G.view()) === asked) {
        tip = { position: asked, codes_left: Number(answer.codes_left), dots: (answer.dots || []).map(Number),
          suggestion: String(answer.suggestion) };
      }
      T.showError("");
    } catch (err) {
      T.showError(err);  // the refusal in words (hints off, already drawn…), never a trace
    }
    asking = false;
    draw();
  });

  useButton.addEventListener("click", () => {
    if (!tip) return;
    path = tip.dots.slice();
    closed = path.length > 3 && path[0] === path[path.length - 1];
    refusal = "";
    T.showError("");
    draw();
  });

  /* The dot buttons: the same dots, pressed one at a time. */
  function drawButtons() {
    if (dotButtons.childElementCount !== size * size) {
      dotButtons.style.setProperty("--n", String(size));
      dotButtons.replaceChildren(...Array.from({ length: size * size }, (_, i) =>
        h("button", { type: "button", class: "secondary dot-button", dataset: { dot: i + 1 } },
          String(i + 1))));
    }
    for (const button of dotButtons.children) {
      const dot = Number(button.dataset.dot);
      const used = path.includes(dot);
      button.classList.toggle("used", used);
      const label = T.message(used ? "dot_n_used" : "dot_n", { n: dot });
      if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
    }
  }
  dotButtons.addEventListener("click", (event) => {
    const button = event.target.closest("[data-dot]");
    if (!button) return;
    add(Number(button.dataset.dot));
    draw();
  });

  function padPoint(event) {
    const point = pad.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(pad.getScreenCTM().inverse());
  }

  function dotAt(p) {
    const s = spacing();
    const c = Math.floor(p.x / s);
    const r = Math.floor(p.y / s);
    if (c < 0 || r < 0 || c >= size || r >= size) return null;
    const [x, y] = [s * (c + 0.5), s * (r + 0.5)];
    return Math.hypot(p.x - x, p.y - y) <= s * 0.3 ? r * size + c + 1 : null;
  }

  pad.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    pad.setPointerCapture(event.pointerId);
    drawing = true;
    if (path.length) { path = []; closed = false; refusal = ""; T.showError(""); }  // a new stroke: a new code
    const dot = dotAt(padPoint(event));
    if (dot !== null) { add(dot); draw(); }
  });
  pad.addEventListener("pointermove", (event) => {
    if (!drawing) return;
    const p = padPoint(event);
    const dot = dotAt(p);
    if (dot !== null && dot !== path[path.length - 1]) { add(dot); draw(); }
    if (rubber && path.length && !closed) {
      const [x, y] = centre(path[path.length - 1]);
      rubber.setAttribute("x1", x); rubber.setAttribute("y1", y);
      rubber.setAttribute("x2", p.x); rubber.setAttribute("y2", p.y);
      rubber.setAttribute("visibility", "visible");
    }
  });
  const stop = () => { drawing = false; if (rubber) rubber.setAttribute("visibility", "hidden"); };
  pad.addEventListener("pointerup", stop);
  pad.addEventListener("pointercancel", stop);

  undoButton.addEventListener("click", () => {
    path.pop(); closed = false; refusal = ""; T.showError(""); draw();
  });
  clearButton.addEventListener("click", () => {
    path = []; closed = false; refusal = ""; T.showError(""); draw();
  });
  submit.addEventListener("click", async () => {
    const view = G.view();
    const verb = view.you === view.lock ? "secret" : "guess";
    submit.disabled = true;
    try {
      await G.act(verb + " " + path.join("-"));
      T.showError("");
      path = []; closed = false; refusal = "";
      draw();
    } catch (err) {
      T.showError(err);  // said once, in the banner; the hint keeps the level's own checks
      draw();
    }
  });

  function update(view) {
    const mine = view.you !== null && view.you !== undefined && (view.to_act || []).includes(view.you)
      && !view.outcome && (view.status === undefined || view.status === "active");
    card.hidden = !mine;
    const newSize = Number(view.size || (view.options || {}).size || 3);
    if (newSize !== size) { size = newSize; path = []; closed = false; }
    if (tip && (tip.position !== position(view) || !mine)) tip = null;  // a new turn: a new hint
    setText(title, view.you === view.lock ? T.message("draw_secret") : T.message("draw_guess", { turn: view.turn }));
    if (!card.hidden) draw();  // a hidden pad is drawn when it shows again
  }
  document.addEventListener("tabletop:view", (event) => update(event.detail));
  // the page's first drawing (once the document is parsed) sends the view: drawn then, once
  if (document.readyState !== "loading") update(G.view());
})();
