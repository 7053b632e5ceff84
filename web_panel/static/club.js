/* Club mode: the hub's live tables (polled), club profiles, and a seat's club code. */
"use strict";
(function () {
  const T = window.Tabletop;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The live tables, redrawn from /api/club/live every few seconds. */
  const live = document.getElementById("club-live");
  if (live) {
    const colours = ["#d93838", "#2f6fd6", "#e0b000", "#2e9e4f", "#8e44ad", "#e67e22", "#16a0a0", "#c2185b"];
    const draw = (boxes) => {
      const holder = document.getElementById("club-boxes");
      holder.replaceChildren();
      if (!boxes.some((box) => box.tables.length)) {
        holder.appendChild(element("p", "muted", T.message("club_no_tables")));
      }
      for (const box of boxes) {
        const card = element("div", "club-box" + (box.online ? "" : " offline"));
        const title = element("h2", "", T.message("club_box", { box: box.box }) + " ");
        title.appendChild(element("span", "muted small", T.message(box.online ? "club_box_online" : "club_box_offline")));
        card.appendChild(title);
        const list = element("ul", "games");
        for (const table of box.tables) {
          const row = element("li", "game-row");
          const about = element("div");
          about.appendChild(element("strong", "", table.name));
          const turn = table.turn === null ? "" : " · " + T.message("club_turn", { turn: table.turn });
          about.appendChild(element("span", "muted", " #" + table.game_id + turn));
          const seats = element("div", "seats");
          table.players.forEach((name, seat) => {
            const score = table.scores && table.scores[seat] !== null ? " " + table.scores[seat] : "";
            const chip = element("span", "seat-chip claimed" + (table.to_act.includes(seat) ? " me" : ""), name + score);
            chip.style.setProperty("--seat", colours[seat % colours.length]);
            seats.appendChild(chip);
          });
          about.appendChild(seats);
          row.appendChild(about);
          if (table.watch) {
            const buttons = element("div", "row-buttons");
            const link = element("a", "button secondary", T.message("club_watch"));
            link.href = table.watch;
            buttons.appendChild(link);
            row.appendChild(buttons);
          }
          list.appendChild(row);
        }
        card.appendChild(list);
        holder.appendChild(card);
      }
    };
    const poll = async () => {
      try {
        const response = await fetch(live.dataset.liveUrl, { credentials: "same-origin" });
        if (response.ok) draw((await response.json()).boxes);
      } catch (err) { /* the next poll tries again */ }
    };
    setInterval(poll, 5000);
  }

  /* Club profiles: make one, claim one with its code, renew the code. */
  const me = document.getElementById("club-me");
  if (me) {
    const show = (code) => {
      document.getElementById("club-code-text").textContent = T.message("club_your_code", { code });
      document.getElementById("club-code-shown").hidden = false;
    };
    const make = document.getElementById("club-make");
    if (make) {
      make.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const reply = await T.post(me.dataset.makeUrl, { name: document.getElementById("club-name").value });
          show(reply.code);
          make.hidden = true;
          document.getElementById("club-claim").hidden = true;
        } catch (err) { T.showError(err.message); }
      });
    }
    const claim = document.getElementById("club-claim");
    if (claim) {
      claim.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const reply = await T.post(me.dataset.claimUrl, { code: document.getElementById("club-claim-code").value });
          window.location.assign(reply.url);
        } catch (err) { T.showError(err.message); }
      });
    }
    const renew = document.getElementById("club-renew");
    if (renew) {
      renew.addEventListener("click", async () => {
        try { show((await T.post(me.dataset.renewUrl)).code); } catch (err) { T.showError(err.message); }
      });
    }
  }

  /* A seat's club code, on the box. */
  const seat = document.getElementById("club-seat");
  if (seat) {
    document.getElementById("club-seat-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await T.post(seat.dataset.codeUrl, { code: document.getElementById("club-seat-code").value });
        document.getElementById("club-seat-done").hidden = false;
      } catch (err) { T.showError(err.message); }
    });
  }
})();
