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
      } catch (err) { T.showError(err); }
    });
  }

  const logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", async () => {
      await T.post(logout.dataset.logoutUrl).catch(() => null);
      window.location.reload();
    });
  }

  /* The game the box's pad follows (POST /api/host/pad). */
  for (const button of document.querySelectorAll("[data-pad]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const game = button.dataset.padGame;
        await T.post(button.dataset.pad, { game_id: game === "" ? null : Number(game) });
        window.location.reload();
      } catch (err) { T.showError(err); button.disabled = false; }
    });
  }

  /* Who plays a seat during the game: a person or the box (POST /api/host/games/N/bots). */
  for (const select of document.querySelectorAll("select[data-seat-bot]")) {
    select.addEventListener("change", async () => {
      select.disabled = true;
      try {
        await T.post(select.dataset.seatBot,
          { seat: Number(select.dataset.seat), level: select.value || null });
        window.location.reload();
      } catch (err) { T.showError(err); select.disabled = false; }
    });
  }

  for (const button of document.querySelectorAll("[data-lock]")) {
    button.addEventListener("click", async () => {
      try {
        await T.post(button.dataset.lock, { locked: button.dataset.locked === "true" });
        window.location.reload();
      } catch (err) { T.showError(err); }
    });
  }

  const form = document.getElementById("new-game");
  if (form) {
    const players = document.getElementById("players");
    const inputs = () => [...players.querySelectorAll("input.player")];
    const rows = () => [...players.querySelectorAll(".player-row")];
    const addButton = document.getElementById("add-player");
    /* The seat choices (the Lock, the first player) name the players as they are typed, and
       offer only the seats the form has. */
    const nameSeats = () => {
      const names = inputs().map((i) => i.value.trim());
      for (const option of form.querySelectorAll("[data-seat-select] option[data-seat]")) {
        const seat = Number(option.dataset.seat);
        option.hidden = seat >= names.length;
        option.textContent = names[seat] || T.message("player_n", { n: seat + 1 });
      }
      if (addButton) addButton.disabled = names.length >= Number(form.dataset.max);
    };
    players.addEventListener("input", nameSeats);
    /* A seat given to the box gets a name if it has none ("Box", "Box 2"). */
    players.addEventListener("change", (event) => {
      const bot = event.target.closest("select.player-bot");
      if (!bot || !bot.value) return;
      const input = bot.closest(".player-row").querySelector("input.player");
      if (input.value.trim()) return;
      const taken = new Set(inputs().map((i) => i.value.trim()));
      let name = form.dataset.botName;
      for (let n = 2; taken.has(name); n += 1) name = form.dataset.botNameN.split("{n}").join(String(n));
      input.value = name;
      nameSeats();
    });
    if (addButton) {
      addButton.addEventListener("click", () => {
        const count = inputs().length;
        if (count >= Number(form.dataset.max)) return;
        // a copy of the first row (its name and its "played by" choice), named for its seat
        const row = rows()[0].cloneNode(true);
        const player = T.message("player_n", { n: count + 1 });
        const input = row.querySelector("input.player");
        input.value = "";
        input.required = false;
        input.placeholder = player;
        const hidden = row.querySelectorAll(".visually-hidden");
        hidden[0].textContent = player;
        if (hidden[1]) hidden[1].textContent = " (" + player + ")";
        const bot = row.querySelector("select.player-bot");
        if (bot) bot.value = "";
        players.appendChild(row);
        input.focus();
        nameSeats();
      });
    }
    /* "No limit" switches its number off (and sends "none"). */
    for (const box of form.querySelectorAll("[data-none-for]")) {
      box.addEventListener("change", () => {
        const field = document.getElementById("opt-" + box.dataset.noneFor);
        field.disabled = box.checked;
        if (!box.checked && field.value === "") field.focus();
      });
    }
    nameSeats();
    const collect = () => {
      // the named players, in order, and the seats among them the box plays
      const named = rows().filter((row) => row.querySelector("input.player").value.trim());
      const names = named.map((row) => row.querySelector("input.player").value.trim());
      const bots = {};
      named.forEach((row, seat) => {
        const bot = row.querySelector("select.player-bot");
        if (bot && bot.value) bots[String(seat)] = bot.value;
      });
      const options = {};
      for (const field of form.querySelectorAll("[data-option] select, [data-option] input:not([type=checkbox])")) {
        const none = form.querySelector(`[data-none-for="${field.name}"]`);
        if (none && none.checked) { options[field.name] = "none"; continue; }
        // an empty field keeps the rules' default (which may depend on the other options)
        if (field.value.trim() !== "") options[field.name] = field.value.trim();
      }
      return { names, options, bots };
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const { names, options, bots } = collect();
      try {
        const reply = await T.post(form.dataset.createUrl, { game: form.dataset.game, players: names, options, bots });
        window.location.assign(reply.url);
      } catch (err) { T.showError(err); }
    });
    const tournament = document.getElementById("start-tournament");
    if (tournament) {
      tournament.addEventListener("click", async () => {
        const { names, options, bots } = collect();
        delete options.lock;
        try {
          const reply = await T.post(form.dataset.tournamentUrl, { game: form.dataset.game, players: names, options, bots });
          window.location.assign(reply.url);
        } catch (err) { T.showError(err); }
      });
    }
  }

  /* Smart dice (docs/dice.md): scan, pair a die heard with an owner (and a GoDice's shell),
     move a paired die to another owner, unpair it; each reloads the page. */
  const dice = document.getElementById("dice");
  if (dice) {
    const owner = (row) => {
      const value = row.querySelector("select[data-die-owner]").value;
      return value === "table" ? null : Number(value);
    };
    const send = async (url, body, control) => {
      if (control) control.disabled = true;
      try {
        await T.post(url, body);
        window.location.reload();
      } catch (err) { T.showError(err); if (control) control.disabled = false; }
    };
    const scan = document.getElementById("dice-scan");
    scan.addEventListener("click", () => {
      scan.textContent = scan.dataset.scanning;
      send(dice.dataset.diceScan, {}, scan);
    });
    dice.addEventListener("click", (event) => {
      const button = event.target.closest("[data-die-pair], [data-die-unpair]");
      if (!button) return;
      const row = button.closest(".die-row");
      if (button.hasAttribute("data-die-unpair")) {
        send(dice.dataset.diceUnpair, { address: row.dataset.address }, button);
        return;
      }
      const shell = row.querySelector("select[data-die-shell]");
      send(dice.dataset.dicePair, { address: row.dataset.address, owner: owner(row),
        faces: shell ? Number(shell.value) : null }, button);
    });
    for (const select of dice.querySelectorAll("#dice-paired select[data-die-owner]")) {
      select.addEventListener("change", () => {
        const row = select.closest(".die-row");
        send(dice.dataset.dicePair, { address: row.dataset.address, owner: owner(row),
          faces: Number(row.dataset.faces) }, select);
      });
    }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-reissue], [data-host-post]");
    if (!button || document.getElementById("game")) return;  // the game page handles its own
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    try {
      const reply = await T.post(button.dataset.reissue || button.dataset.hostPost,
        JSON.parse(button.dataset.hostBody || "{}"));
      if (button.dataset.reissue) window.location.assign(reply.url);
      else window.location.reload();
    } catch (err) { T.showError(err); }
  });
})();
