/* ICO's board, drawn from the seat's view like the paper one: the flat net of the icosahedron
   (its geometry from the game's catalogue entry, ctx.info.board: rules.ico.net), the two faces
   of each opposite pair in one colour, the active face in black, the legal edges highlighted
   (tappable on the mover's phone), every marker in its seat's colour, the winning figure's
   edges, the balance rule that decides the turn, and the mover's buttons. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h, s } = K;
  /* One fill per pair of opposite faces (each face of the net carries its pair's index). */
  const PAIR_COLOURS = ["#f4c7c3", "#c6dcf5", "#f6e7a8", "#c8ebcf", "#dccbf0", "#f8d3b0",
    "#bfe8e6", "#f1c6dd", "#dedede", "#e2eec0"];
  /* How rules.ico.figures names a winning figure → the board's words for it. */
  const FIGURES = [
    [/^face (\S+)$/, "figure_face"],
    [/^faces (\S+) and (\S+)$/, "figure_faces"],
    [/^belt between (\S+) and (\S+)$/, "figure_belt"],
    [/^double triangles around (\S+) and (\S+)$/, "figure_doubles"],
    [/^double triangle around (\S+)$/, "figure_double"],
    [/^perpendicular set (\d+)$/, "figure_perpendicular"],
  ];

  /* A coordinate as an attribute: four decimals at most (the net's own precision). */
  function n(value) {
    return Number(Number(value).toFixed(4));
  }

  /* One seat per marker: the view gives a count per seat ([1, 0, 2] → [0, 2, 2]). */
  function markerSeats(markers) {
    if (!Array.isArray(markers)) return [];
    return markers.flatMap((count, seat) => new Array(Math.max(0, Number(count) || 0)).fill(seat));
  }

  /* The net's geometry to draw — faces, edges, vertices, frame — or null when there is no
     net: the catalogue's (else the view's own "net", else the view). Worked out once for each
     catalogue entry (a game's net never changes), not at every move. */
  const geometries = new WeakMap();
  function netGeometry(view, board) {
    const net = board && typeof board === "object" ? board : view.net;
    const source = net && typeof net === "object" ? net : view;
    if (!geometries.has(source)) geometries.set(source, geometryOf(source));
    return geometries.get(source);
  }

  function geometryOf(source) {
    const faceList = (source.faces || []).filter((f) => f && typeof f === "object" && "path" in f);
    const edgeList = (source.edges || []).filter((e) => e && typeof e === "object" && "from" in e);
    if (!faceList.length || !edgeList.length) return null;
    const outer = Number(source.outer_radius || 1);
    const faces = faceList.map((face) => ({
      id: face.id,
      path: face.path,
      fill: PAIR_COLOURS[(Number(face.colour) || 0) % PAIR_COLOURS.length],
      colourIndex: Number(face.colour) || 0,
      label: face.label || [0, 0],
    }));
    // The edges stay in the net's order whatever is legal: a turn changes a few edges' class
    // in place rather than moving them in the document (which restyles and lays out the net).
    const edges = edgeList.map((edge) => {
      const [[x1, y1], [x2, y2]] = [edge.from, edge.to];
      return { id: String(edge.id), x1, y1, x2, y2 };
    });
    // Vertex names, so an edge such as "U4-U0" can be found; the vertex stretched into the
    // outer circle is named on the circle itself.
    const vertices = (source.vertices || []).filter((v) => v && typeof v === "object" && "x" in v)
      .map((v) => {
        const onCircle = v.circle !== undefined && v.circle !== null;
        return { id: v.id, x: onCircle ? outer * 0.72 : v.x, y: onCircle ? outer * 0.72 : v.y };
      });
    const margin = outer * 0.06;
    const box = [-outer - margin, -outer - margin, 2 * (outer + margin), 2 * (outer + margin)]
      .map((v) => v.toFixed(3)).join(" ");
    return { outer, faces, edges, vertices, viewBox: box, unit: outer / 100,
      key: box + "|" + faces.length + "|" + edges.length };
  }

  /* Where an edge's markers sit: spread along its middle, one per marker, in the seats' order. */
  function markerDots(edge, seats) {
    return seats.map((seat, i) => {
      const t = 0.5 + (i - (seats.length - 1) / 2) * 0.24;
      return { x: edge.x1 + (edge.x2 - edge.x1) * t, y: edge.y1 + (edge.y2 - edge.y1) * t, seat };
    });
  }

  /* One glyph per pair of opposite faces: the two faces of a pair share a colour and a glyph,
     so pairs are told apart without colour. */
  const PAIR_GLYPHS = ["●", "■", "▲", "◆", "★", "✚", "♥", "♣", "♠", "✖"];

  function netSvg(net, verb, myTurn, seated, view, ctx) {
    const u = net.unit;
    const glyph = (f) => PAIR_GLYPHS[(Number(f.colourIndex) || 0) % PAIR_GLYPHS.length];
    /* Each layer is described again only when what it shows changed (K.memo), its key made
       from the view's few fields it shows: a live update skips the others whole. The net's
       geometry is the page's (its catalogue entry). */
    const geometry = net.key;
    const active = view.active_face;
    const legal = new Set((view.legal_edges || []).map(String));
    const won = new Set(((view.outcome || {}).edges || []).map(String));
    const legalState = [...legal].join();
    const edgeState = legalState + "|" + [...won].join();
    const hitState = (myTurn ? verb : "") + "|" + legalState;
    const colours = JSON.stringify(view.colours || null);
    const markerState = JSON.stringify(view.edges || []) + "|" + colours;
    /* Drawn first and never taking a tap: faces, labels, edges, markers. Then, on a seated
       player's phone, a wide transparent line over every edge (at least 44 px across), taking
       taps only on the mover's turn: a legal one plays it, any other says why it cannot be
       used. Markers let taps through. The lines stay between turns: off the mover's turn their
       layer is idle (one class on the group), so a turn changes one attribute rather than
       thirty lines' or adding and removing them. */
    return s("svg", { class: "ico-net", viewBox: net.viewBox, role: "img", "aria-label": ctx.t("ico_board") },
      s("circle", { class: "outer", cx: 0, cy: 0, r: n(net.outer) }),
      K.memo("ico-faces|" + geometry + "|" + active, () => s("g", { class: "faces" },
        net.faces.map((f) => K.memo("ico-face|" + geometry + "|" + f.id + "|" + (f.id === active), () => s("path", {
          key: f.id, class: "face" + (f.id === active ? " active" : ""), d: f.path, fill: f.fill, "data-face": f.id }))))),
      K.memo("ico-labels|" + geometry + "|" + active, () => s("g", { class: "face-labels" },
        net.faces.map((f) => K.memo("ico-label|" + geometry + "|" + f.id + "|" + (f.id === active), () => s("text", {
          key: f.id, class: "face-label" + (f.id === active ? " active" : ""), x: n(f.label[0]),
          y: n(f.label[1]), "font-size": n(u * 7.2), "text-anchor": "middle", "dominant-baseline": "middle" },
        f.id, s("tspan", { class: "pair-glyph", x: n(f.label[0]), dy: n(u * 6.6) }, glyph(f))))))),
      K.memo("ico-edges|" + geometry + "|" + edgeState, () => s("g", { class: "edges" },
        net.edges.map((e) => {
          const isLegal = legal.has(e.id);
          const isWon = won.has(e.id);
          return K.memo("ico-edge|" + geometry + "|" + e.id + "|" + isLegal + "|" + isWon, () => s("line", {
            key: e.id, class: "edge" + (isLegal ? " legal" : "") + (isWon ? " won" : ""),
            x1: n(e.x1), y1: n(e.y1), x2: n(e.x2), y2: n(e.y2),
            "stroke-width": n(u * (isLegal ? 2.2 : isWon ? 2.4 : 0.7)), "data-edge": e.id }));
        }))),
      K.memo("ico-markers|" + geometry + "|" + markerState, () => {
        const markers = new Map((view.edges || []).map((e) => [String(e.id), markerSeats(e.markers)]));
        return s("g", { class: "markers" }, net.edges.map((e) => {
          const seats = markers.get(e.id) || [];
          return K.memo("ico-on|" + geometry + "|" + e.id + "|" + seats.join() + "|" + colours,
            () => markerDots(e, seats).map((m, i) => K.markerShape(m.seat, view, m.x, m.y, u * 3.4,
              { key: e.id + ":" + i, stroke: "#111", "stroke-width": n(u * 0.5) })));
        }));
      }),
      K.memo("ico-vertices|" + geometry, () => s("g", { class: "vertex-labels" },
        net.vertices.map((v) => s("text", { key: v.id, class: "vertex-label", x: n(v.x), y: n(v.y), "font-size": n(u * 6.6),
          "text-anchor": "middle", "dominant-baseline": "middle" }, v.id)))),
      seated ? s("g", { key: "edge-hits", class: "edge-hits" + (myTurn ? "" : " idle") }, K.memo("ico-hits|" + geometry + "|" + legalState,
        // a legal edge's own line is idle here: the layer above plays it
        () => net.edges.map((e) => K.memo("ico-hit|" + geometry + "|" + e.id + "|" + legal.has(e.id), () => hitLine(e, u,
          legal.has(e.id) ? "edge-hit idle" : "edge-hit", legal.has(e.id) ? null : { refuse: e.id }))))) : null,
      /* The legal edges' lines last, over every other (a tap where two lines meet plays the
         legal edge): a turn changes only these few. */
      seated && myTurn ? K.memo("ico-legal-hits|" + geometry + "|" + hitState, () => s("g", { class: "edge-hits legal-hits" },
        net.edges.filter((e) => legal.has(e.id)).map((e) => hitLine(e, u, "edge-hit legal",
          { action: verb + " " + e.id })))) : null);
  }

  /* The wide transparent line that takes the taps on an edge (inset from its ends, so a tap on
     a vertex is nobody's). */
  function hitLine(e, u, cls, dataset) {
    return s("line", { key: e.id, class: cls, x1: n(e.x1 + (e.x2 - e.x1) * 0.12), y1: n(e.y1 + (e.y2 - e.y1) * 0.12),
      x2: n(e.x2 - (e.x2 - e.x1) * 0.12), y2: n(e.y2 - (e.y2 - e.y1) * 0.12), "stroke-width": n(u * 26), dataset });
  }

  /* The winning figure in the page's language (its rules name, if it is not one we know). */
  function figureText(name, ctx) {
    for (const [pattern, key] of FIGURES) {
      const found = pattern.exec(String(name));
      if (found) return ctx.t(key, found[2] === undefined ? { a: found[1] } : { a: found[1], b: found[2] });
    }
    return String(name);
  }

  /* How the rules explain this turn's edges (rules.ico.balance) → the board's words for it. */
  const WHY = [
    [/^you must use edge (\S+): (.+)$/, "why_must", (m) => ({ edge: m[1] }), 2],
    [/^use (.+): (.+) \((\d+)\)$/, "why_use", (m) => ({ edges: m[1].replace(/^any of /, "").replace(/ or /g, ", "), n: m[3] }), 2],
    [/^roll the face across (\S+), the edge you just used$/, "why_roll", (m) => ({ edge: m[1] }), 0],
  ];
  const WHY_TAILS = {
    "it is the only edge of this face without your colour": "why_only_without",
    "of the two edges without your colour it carries fewer markers": "why_fewer_without",
    "they are the two edges without your colour and carry equally many markers": "why_two_without",
    "it carries the fewest markers of this face": "why_fewest",
    "they carry the fewest markers of this face": "why_fewest_several",
    "it is the only empty edge of this face (Level 4: one marker per edge)": "why_only_empty",
    "they are the empty edges of this face (Level 4: one marker per edge)": "why_empty",
    "every edge of this face carries your colour, so you put a second marker on the edge with the fewest markers": "why_second",
    "every edge of this face carries your colour, so you put a second marker on one of the edges with the fewest markers": "why_second_several",
    "you have no markers left: roll the face across an edge of your choice": "why_no_markers",
    "every edge of this face already holds a marker (Level 4 allows one per edge): roll the face across an edge of your choice": "why_all_held",
    "all three edges of this face carry your colour: you place nothing and roll the face across an edge of your choice": "why_move_colour",
    "all three edges of this face carry two of your markers: you place nothing and roll the face across an edge of your choice": "why_move_two",
  };

  /* The rules' why in the page's language (its English as it is when no words are known). */
  function whyText(why, ctx) {
    const text = String(why || "");
    if (document.documentElement.lang === "en") return text;  // the rules' own words
    if (WHY_TAILS[text]) return ctx.t(WHY_TAILS[text]);
    for (const [pattern, key, values, tail] of WHY) {
      const found = pattern.exec(text);
      if (!found) continue;
      const rest = tail ? WHY_TAILS[found[tail]] : null;
      if (tail && !rest) break;
      return ctx.t(key, values(found)) + (rest ? " " + ctx.t(rest) : "");
    }
    return "";
  }

  /* The balance rule that decides this turn, named in the page's language, and why. */
  function balanceHint(view, ctx) {
    if (!view.balance_reason) return null;
    const key = "ico_rule_" + String(view.balance_rule || "").split(" ").join("_");
    const name = ctx.t(key);
    const why = whyText(view.balance_why, ctx);
    return h("p", { class: "hint balance", id: "balance-hint" },
      view.balance_rule ? [h("b", {}, name === key ? view.balance_rule : name), why ? ": " : ""] : null, why);
  }

  /* Each seat's markers left, on a chip in its colour. */
  function markersLeft(view, ctx) {
    return (view.markers_left || []).map((left, seat) => h("span", {
      class: "seat-chip claimed" + (seat === view.you ? " me" : ""),
      style: K.seatStyle(seat, view), dataset: { seat },
    }, ctx.t("markers_left_of", { name: view.seats[seat], n: left })));
  }

  /* The active face and its three edges, large: each edge a button (legal ones play it, the
     others say why not), so no tap needs a 44 px line on the small net. */
  function closeUp(view, verb, ctx) {
    const face = (view.faces || []).find((f) => f.id === view.active_face);
    if (!face) return null;
    const legal = new Set((view.legal_edges || []).map(String));
    const markers = new Map((view.edges || []).map((e) => [String(e.id), markerSeats(e.markers)]));
    return h("div", { class: "moves card" },
      h("h2", {}, ctx.t("your_move")),
      h("p", { class: "muted" }, ctx.t(verb === "roll" ? "tap_edge_roll" : "tap_edge_place", { face: face.id })),
      h("div", { class: "face-edges" }, (face.edges || []).map((edge) => {
        const on = markers.get(String(edge)) || [];
        const ok = legal.has(String(edge));
        return h("button", { key: edge, type: "button", class: "edge-button" + (ok ? "" : " secondary refused"),
          dataset: ok ? { action: verb + " " + edge } : { refuse: edge },
          "aria-label": ctx.t(ok ? "edge_play" : "edge_refused", { verb: ctx.t("verb_" + verb), edge,
            markers: on.map((seat) => view.seats[seat]).join(", ") || "—" }) },
        h("span", { class: "edge-name" }, (ok ? "" : "✕ ") + edge),
        h("span", { class: "edge-markers" }, on.map((seat) => h("span", { class: "mini-marker", style: K.seatStyle(seat, view),
          dataset: { shape: K.seatShape(seat) } })) ));
      })),
      view.can_claim ? h("button", { type: "button", class: "big", dataset: { action: "claim" } },
        ctx.t("action_claim")) : null);
  }

  /* Why an edge cannot be used this turn (a tap on it says so). */
  function refusal(view, edge, ctx) {
    const face = (view.faces || []).find((f) => f.id === view.active_face);
    if (face && !(face.edges || []).map(String).includes(String(edge))) {
      return ctx.t("not_active_edge", { edge, face: view.active_face });
    }
    const why = whyText(view.balance_why, ctx);
    return ctx.t("edge_not_allowed", { edge }) + (why ? " " + why : "");
  }

  /* The results' figures: markers placed. */
  function stats(view, ctx) {
    const per = Number(view.markers_per_colour);
    return [{ label: ctx.t("markers_placed"), values: (view.markers_left || []).map((left) => per - Number(left)) }];
  }

  function render(view, ctx) {
    const net = netGeometry(view, (ctx.info || {}).board);
    const myTurn = view.you !== null && view.you !== undefined && (view.to_act || []).includes(view.you)
      && view.status === "active" && !ctx.replay;
    const seated = view.you !== null && view.you !== undefined && !ctx.replay;
    const verb = view.phase === "roll" || view.phase === "move" ? "roll" : "place";
    /* The results without the rules' scores: ICO's are 1 for the winner and 0 for the others,
       which the winners' line says already; what is left, markers placed, reads as one line. */
    const outcome = view.outcome ? { ...view, outcome: { ...view.outcome, scores: null,
      figure: view.outcome.figure ? figureText(view.outcome.figure, ctx) : view.outcome.figure } } : view;
    return h("div", { class: "board ico", dataset: { viewVersion: view.version } },
      K.facts(
        ctx.t("level") + " " + view.level + (view.extended ? " (" + ctx.t("extended") + ")" : ""),
        ctx.t("turn") + " " + view.turn,
        view.active_face ? ctx.t("active_face") + " " + view.active_face : null,
        ...markersLeft(view, ctx)),
      K.outcomeBox(outcome, ctx, stats),
      K.waitingFor(view, ctx),
      net ? netSvg(net, verb, myTurn, seated, view, ctx) : null,
      balanceHint(view, ctx),
      myTurn ? closeUp(view, verb, ctx) : null,
      K.hostTools(view, ctx));
  }

  /* Each move from ``from`` on in words. */
  function describe(moves, view, ctx, from = 0) {
    return moves.slice(from).map((move) => {
      const name = (view.seats || [])[move.seat];
      const [verb, edge] = String(move.action || move.verb).split(/\s+/);
      if (verb === "place" || verb === "roll" || verb === "claim") return ctx.t("move_" + verb, { name, edge });
      return ctx.t("move_generic", { name, action: move.action || move.verb });
    });
  }

  /* The markers each player has placed, move by move. */
  function progress(moves, view, ctx) {
    const placed = (view.seats || []).map(() => 0);
    const series = {};
    placed.forEach((_, seat) => { series[seat] = [0]; });
    const labels = ["0"];
    for (const move of moves) {
      if (move.verb !== "place") continue;
      placed[move.seat] += 1;
      placed.forEach((count, seat) => series[seat].push(count));
      labels.push(String(labels.length));
    }
    if (labels.length < 2) return null;
    return { title: ctx.t("markers_chart"), series, labels };
  }

  window.TabletopBoards.register("ico", { render, refusal, describe, progress });
})();
