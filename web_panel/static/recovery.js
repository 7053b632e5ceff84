/* The damaged journal's notice: the host restores the backup (or starts an empty journal)
   with the PIN; the page then waits for the box to start again and reloads. */
(function () {
  "use strict";
  const form = document.getElementById("restore");
  const said = document.getElementById("restore-said");
  if (!form) return;

  async function waitForTheBox() {
    for (let tries = 0; tries < 60; tries += 1) {
      await new Promise((resolve) => { setTimeout(resolve, 1000); });
      try {
        const reply = await fetch("/api/status", { credentials: "same-origin" });
        if (reply.ok) { window.location.assign("/"); return; }
      } catch (err) { /* the box is starting */ }
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const reply = await fetch("/api/journal/restore", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-Requested-With": "tabletop" },
        body: JSON.stringify({ pin: form.elements.pin.value }),
      });
      const body = await reply.json().catch(() => ({}));
      if (!reply.ok) {
        said.textContent = body.message || String(reply.status);
        button.disabled = false;
        return;
      }
      said.textContent = body.message || form.dataset.done;
      waitForTheBox();
    } catch (err) {
      said.textContent = String(err);
      button.disabled = false;
    }
  });
}());
