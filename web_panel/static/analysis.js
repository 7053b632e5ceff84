/* The replay page's post-game analysis (web_panel/templates/analysis.html, drawn by the server).

   - While it is being computed the section says so, and this script asks the page's analysis
     section again (its own URL, GET /games/<id>/replay/analysis) as often as the answer's
     Retry-After says, a bounded number of times; once it is ready the section is replaced by
     the server's drawing. 204: the game has none, the section goes.
   - Each move the analysis names (the move played and the bot's best) is put in the game's own
     words, as the replay's step and the move log say it (the game's board script's describer),
     in the page's language; without a describer the server's words stay. */
"use strict";
(function () {
  const TRIES = 30;

  function pageData() {
    const node = document.getElementById("game-data");
    return node ? JSON.parse(node.textContent) : {};
  }

  /* The game's moves as the replay's describer takes them (step n is the n-th action). */
  function replayMoves(page) {
    return (page.steps || []).slice(1).map((s, i) => ({
      step: i + 1, seat: s.seat, verb: String(s.action || "").split(" ")[0], action: s.action, by: s.by }));
  }

  function describeMoves(section) {
    const game = window.TabletopGame;
    const boards = window.TabletopBoards;
    const page = pageData();
    if (!game || !boards || !page.game) return;
    const board = boards.board(page.game);
    if (!board || typeof board.describe !== "function") return;
    const moves = replayMoves(page);
    const view = game.view();
    let played = null;
    try { played = board.describe(moves, view, game.ctx); } catch (err) { return; }
    for (const node of section.querySelectorAll(".move[data-n]")) {
      const n = Number(node.dataset.n);
      const seat = Number(node.dataset.seat);
      const action = node.dataset.move;
      if (!Number.isInteger(n) || n < 1 || n > moves.length) continue;
      try {
        let text = null;
        if (node.dataset.which === "played") {
          if (moves[n - 1].action === action) text = played[n - 1];
        } else {
          const before = moves.slice(0, n - 1);
          const words = board.describe([...before, { step: n, seat, verb: action.split(" ")[0], action, by: null }], view, game.ctx);
          text = words[words.length - 1];
        }
        if (typeof text === "string" && text) node.textContent = text;
      } catch (err) { /* the server's words stay */ }
    }
  }

  function wait(seconds) {
    return new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });
  }

  async function follow(section) {
    const url = section.dataset.url;
    for (let tries = 0; tries < TRIES; tries += 1) {
      let after = 2;
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.status === 200) {
          const holder = document.createElement("div");
          holder.innerHTML = await response.text();
          const fresh = holder.querySelector("#analysis");
          if (fresh) {
            section.replaceWith(fresh);
            describeMoves(fresh);
          }
          return;
        }
        if (response.status === 204) { section.remove(); return; }
        if (response.status !== 202) break;
        after = Number(response.headers.get("Retry-After")) || 2;
      } catch (err) { /* offline: ask again */ }
      await wait(Math.min(Math.max(after, 1), 10));
    }
    const late = document.getElementById("analysis-late");
    if (late) late.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    // after game.js has drawn the board and registered the page's view
    setTimeout(() => {
      const section = document.getElementById("analysis");
      if (!section) return;
      if (section.dataset.state === "pending") follow(section); else describeMoves(section);
    }, 0);
  });
})();
