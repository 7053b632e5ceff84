/* Tic-tac-toe's board: nine squares; on the mover's phone the free ones are buttons. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h } = K;

  function render(view, ctx) {
    const legal = new Set(ctx.replay ? [] : (view.legal_actions || []));
    return h("div", { class: "board tictactoe" },
      K.outcomeBox(view, ctx),
      K.waitingFor(view, ctx),
      h("div", { class: "ttt-grid", style: { display: "grid", "grid-template-columns": "repeat(3, 64px)", gap: "4px" } },
        view.squares.map((owner, index) => {
          const action = "mark " + (index + 1);
          const text = owner === null ? "" : "XO"[owner];
          return legal.has(action)
            ? h("button", { type: "button", class: "ttt-square", dataset: { action, square: index + 1 } }, text)
            : h("div", { class: "ttt-square", dataset: { square: index + 1 } }, text);
        })),
      K.hostTools(view, ctx));
  }

  window.TabletopBoards.register("tictactoe", { render });
})();
