/* The generic board: any game without a board script of its own is still playable — who is to
   act, the outcome, and a button for each legal action of this phone's seat. */
"use strict";
(function () {
  const K = window.TabletopKit;
  const { h } = K;

  function render(view, ctx) {
    const legal = ctx.replay ? [] : (view.legal_actions || []);
    return h("div", { class: "board generic" },
      K.facts(ctx.t("turn") + " " + (view.turn ?? "")),
      K.outcomeBox(view, ctx),
      K.waitingFor(view, ctx),
      legal.length ? h("div", { class: "moves card" },
        h("h2", {}, ctx.t("your_move")),
        h("div", { class: "other-moves" }, legal.map((action) =>
          h("button", { type: "button", dataset: { action } }, action)))) : null,
      K.hostTools(view, ctx));
  }

  window.TabletopBoards.register("*", { render });
})();
