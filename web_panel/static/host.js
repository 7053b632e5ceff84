/* The host's pages: PIN login, the new-game form (options from the catalogue), seat hand-overs. */
"use strict";
(function () {
  const T = window.Tabletop;

  const pinForm = document.getElementById("pin-form");
  if (pinForm) {
    pinForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await T.post(pinForm.dataset.loginUrl, { pin: document.getElementById("pin").value });
        window.location.reload();
      } catch (err) { T.showError(err.message); }
    });
  }

  const logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", async () => {
      await T.post(logout.dataset.logoutUrl).catch(() => null);
      window.location.reload();
    });
  }

  for (const button of document.querySelectorAll("[data-lock]")) {
    button.addEventListener("click", async () => {
      try {
        await T.post(button.dataset.lock, { locked: button.dataset.locked === "true" });
        window.location.reload();
      } catch (err) { T.showError(err.message); }
    });
  }

  const form = document.getElementById("new-game");
  if (form) {
    const players = document.getElementById("players");
    document.getElementById("add-player").addEventListener("click", () => {
      const count = players.querySelectorAll("input").length;
      if (count >= Number(form.dataset.max)) return;
      const input = document.createElement("input");
      input.className = "player"; input.name = "player"; input.maxLength = 40;
      input.placeholder = T.message("player_n", { n: count + 1 });
      players.appendChild(input);
      input.focus();
    });
    const collect = () => {
      const names = [...players.querySelectorAll("input")].map((i) => i.value.trim()).filter(Boolean);
      const options = {};
      for (const field of form.querySelectorAll("[data-option] select, [data-option] input")) {
        if (field.value.trim() !== "") options[field.name] = field.value.trim();
      }
      return { names, options };
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const { names, options } = collect();
      try {
        const reply = await T.post(form.dataset.createUrl, { game: form.dataset.game, players: names, options });
        window.location.assign(reply.url);
      } catch (err) { T.showError(err.message); }
    });
    const tournament = document.getElementById("start-tournament");
    if (tournament) {
      tournament.addEventListener("click", async () => {
        const { names, options } = collect();
        delete options.lock;
        try {
          const reply = await T.post(form.dataset.tournamentUrl, { game: form.dataset.game, players: names, options });
          window.location.assign(reply.url);
        } catch (err) { T.showError(err.message); }
      });
    }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-reissue], [data-host-post]");
    if (!button || document.getElementById("game")) return;  // the game page handles its own
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    try {
      const reply = await T.post(button.dataset.reissue || button.dataset.hostPost);
      if (button.dataset.reissue) window.location.assign(reply.url);
      else window.location.reload();
    } catch (err) { T.showError(err.message); }
  });
})();
