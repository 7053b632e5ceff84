/* /device: the simulated box. Buttons drive the simulator; the OLED image reloads on change,
   and each key's ring shows its light's colour. */
"use strict";
(function () {
  const T = window.Tabletop;
  const root = document.getElementById("device");
  if (!root) return;
  const oled = document.getElementById("oled");
  let frame = Number(root.dataset.frameVersion);

  function show(version) {
    if (version === frame) return;
    frame = version;
    oled.src = root.dataset.frameUrl + "?v=" + version;
  }

  const tft = document.getElementById("tft");
  function showTft(version) {
    if (!tft || version === undefined || String(version) === tft.dataset.tftVersion) return;
    tft.dataset.tftVersion = String(version);
    tft.src = tft.dataset.tftUrl + "?v=" + version;
  }

  function light(colours) {
    if (!colours) return;
    for (const key of root.querySelectorAll("[data-light]")) {
      const lit = colours[key.dataset.light] || "#000000";
      const colour = lit === "#000000" ? "transparent" : lit;  // a dark light: no ring
      if (key.style.getPropertyValue("--light") !== colour) key.style.setProperty("--light", colour);
    }
  }

  async function send(body) {
    try {
      const reply = await T.post(root.dataset.inputUrl, body);
      show(reply.frame_version);
      light(reply.lights);
      showTft(reply.tft_version);
    } catch (err) { T.showError(err); }
  }

  root.addEventListener("click", (event) => {
    const dot = event.target.closest("[data-dot]");
    if (dot) { send({ kind: "tap", dot: Number(dot.dataset.dot) }); return; }
    const keypad = event.target.closest("[data-keypad]");
    if (keypad) { send({ kind: "key", key: keypad.dataset.keypad }); return; }
    const key = event.target.closest("[data-key]");
    if (key) { send({ kind: key.dataset.key }); return; }
    const smart = event.target.closest("[data-smart-roll]");
    if (smart) { send({ kind: "smart_roll", address: smart.dataset.smartRoll }); return; }
    const roll = event.target.closest("[data-roll]");
    if (roll) send({ kind: "roll", value: roll.dataset.roll === "random" ? null : Number(roll.dataset.roll) });
  });

  async function watch() {
    try {
      const response = await fetch(root.dataset.stateUrl, { credentials: "same-origin" });
      if (response.ok) {
        const state = await response.json();
        show(state.frame_version);
        light(state.lights);
        showTft(state.tft_version);
      }
    } catch (err) { /* the next tick tries again */ }
    setTimeout(watch, 300);
  }
  watch();
})();
