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

  /* Faces, edges, vertices and markers to draw, or null when there is no net. The geometry is
     the catalogue's (else the view's own "net", else the view); the view adds the active face,
     the legal edges, the markers and the winning figure. */
  function netDrawing(view, board) {
    const net = board && typeof board === "object" ? board : view.net;
    const source = net && typeof net === "object" ? net : view;
    const faceList = (source.faces || []).filter((f) => f && typeof f === "object" && "path" in f);
    const edgeList = (source.edges || []).filter((e) => e && typeof e === "object" && "from" in e);
    if (!faceList.length || !edgeList.length) return null;
    const outer = Number(source.outer_radius || 1);
    const legal = new Set((view.legal_edges || []).map(String));
    const won = new Set(((view.outcome || {}).edges || []).map(String));
    const markers = new Map((view.edges || []).map((e) => [String(e.id), markerSeats(e.markers)]));
    const faces = faceList.map((face) => ({
      id: face.id,
      path: face.path,
      fill: PAIR_COLOURS[(Number(face.colour) || 0) % PAIR_COLOURS.length],
      active: face.id === view.active_face,
      label: face.label || [0, 0],
    }));
    const edges = edgeList.map((edge) => {
      const [[x1, y1], [x2, y2]] = [edge.from, edge.to];
      const seats = markers.get(String(edge.id)) || [];
      const dots = seats.map((seat, i) => {
        const t = 0.5 + (i - (seats.length - 1) / 2) * 0.2;
        return { x: x1 + (x2 - x1) * t, y: y1 + (y2 - y1) * t, seat };
      });
      return { id: String(edge.id), x1, y1, x2, y2, legal: legal.has(String(edge.id)),
        won: won.has(String(edge.id)), markers: dots };
    });
    // Legal edges last, so they are drawn on top and easy to tap (the sort is stable).
    edges.sort((a, b) => Number(a.legal) - Number(b.legal));
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
    return { outer, faces, edges, vertices, viewBox: box, unit: outer / 100 };
  }

  function netSvg(net, verb, myTurn, ctx) {
    const u = net.unit;
    return s("svg", { class: "ico-net", viewBox: net.viewBox, role: "img", "aria-label": ctx.t("ico_board") },
      s("circle", { class: "outer", cx: 0, cy: 0, r: n(net.outer) }),
      net.faces.map((f) => s("path", { class: "face" + (f.active ? " active" : ""), d: f.path, fill: f.fill,
        "data-face": f.id })),
      net.faces.map((f) => s("text", { class: "face-label" + (f.active ? " active" : ""), x: n(f.label[0]),
        y: n(f.label[1]), "font-size": n(u * 5), "text-anchor": "middle", "dominant-baseline": "middle" }, f.id)),
      net.edges.map((e) => [
        s("line", { class: "edge" + (e.legal ? " legal" : "") + (e.won ? " won" : ""), x1: n(e.x1), y1: n(e.y1),
          x2: n(e.x2), y2: n(e.y2), "stroke-width": n(u * (e.legal || e.won ? 1.6 : 0.6)), "data-edge": e.id }),
        e.legal && myTurn ? s("line", { class: "edge-hit", x1: n(e.x1), y1: n(e.y1), x2: n(e.x2), y2: n(e.y2),
          "stroke-width": n(u * 9), "data-action": verb + " " + e.id }) : null,
        e.markers.map((m) => s("circle", { class: "marker", cx: n(m.x), cy: n(m.y), r: n(u * 3),
          fill: K.seatColour(m.seat), "data-seat": m.seat })),
      ]),
      net.vertices.map((v) => s("text", { class: "vertex-label", x: n(v.x), y: n(v.y), "font-size": n(u * 5.5),
        "text-anchor": "middle", "dominant-baseline": "middle" }, v.id)));
  }

  /* The winning figure in the page's language (its rules name, if it is not one we know). */
  function figureText(name, ctx) {
    for (const [pattern, key] of FIGURES) {
      const found = pattern.exec(String(name));
      if (found) return ctx.t(key, found[2] === undefined ? { a: found[1] } : { a: found[1], b: found[2] });
    }
    return String(name);
  }

  /* The balance rule that decides this turn, named in the page's language, and why. */
  function balanceHint(view, ctx) {
    if (!view.balance_reason) return null;
    if (!view.balance_rule) return h("p", { class: "hint" }, view.balance_reason);
    const key = "ico_rule_" + String(view.balance_rule).split(" ").join("_");
    const name = ctx.t(key);
    return h("p", { class: "hint" }, h("b", {}, name === key ? view.balance_rule : name), ": ",
      view.balance_why);
  }

  /* Each seat's markers left, on a chip in its colour. */
  function markersLeft(view, ctx) {
    return (view.markers_left || []).map((left, seat) => h("span", {
      class: "seat-chip claimed" + (seat === view.you ? " me" : ""),
      style: { "--seat": K.seatColour(seat) },
      title: ctx.t("markers_left_of", { name: view.seats[seat], n: left }),
    }, view.seats[seat] + " · " + left));
  }

  function moves(view, verb, ctx) {
    return h("div", { class: "moves card" },
      h("h2", {}, ctx.t("your_move")),
      h("div", { class: "other-moves" },
        (view.legal_edges || []).map((edge) => h("button", { type: "button", dataset: { action: verb + " " + edge } },
          ctx.t("verb_" + verb) + " " + edge)),
        view.can_claim ? h("button", { type: "button", class: "big", dataset: { action: "claim" } },
          ctx.t("action_claim")) : null));
  }

  function render(view, ctx) {
    const net = netDrawing(view, (ctx.info || {}).board);
    const myTurn = view.you !== null && view.you !== undefined && (view.to_act || []).includes(view.you)
      && view.status === "active" && !ctx.replay;
    const verb = view.phase === "roll" || view.phase === "move" ? "roll" : "place";
    const outcome = view.outcome && view.outcome.figure
      ? { ...view, outcome: { ...view.outcome, figure: figureText(view.outcome.figure, ctx) } } : view;
    return h("div", { class: "board ico", dataset: { viewVersion: view.version } },
      K.facts(
        ctx.t("level") + " " + view.level + (view.extended ? " (" + ctx.t("extended") + ")" : ""),
        ctx.t("turn") + " " + view.turn,
        view.active_face ? ctx.t("active_face") + " " + view.active_face : null,
        ...markersLeft(view, ctx)),
      K.outcomeBox(outcome, ctx),
      K.waitingFor(view, ctx),
      net ? netSvg(net, verb, myTurn, ctx) : null,
      balanceHint(view, ctx),
      myTurn ? moves(view, verb, ctx) : null,
      K.hostTools(view, ctx));
  }

  window.TabletopBoards.register("ico", { render });
})();
