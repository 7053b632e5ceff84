/* Shared by every page: messages, JSON POSTs with the CSRF header, the error banner, joining. */
"use strict";
(function () {
  const messages = JSON.parse(document.getElementById("messages").textContent || "{}");

  function message(key, values) {
    let text = messages[key] || key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function showError(text) {
    const box = document.getElementById("message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
    if (text) {
      clearTimeout(showError.timer);
      showError.timer = setTimeout(() => { box.hidden = true; }, 8000);
    }
  }

  /* POST JSON with the header every state-changing request needs; resolve to the JSON reply,
     reject with the server's message when it refused. */
  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-Requested-With": "tabletop" },
        body: JSON.stringify(body || {}),
      });
    } catch (err) {
      throw new Error(message("offline"));
    }
    let data = {};
    try { data = await response.json(); } catch (err) { data = {}; }
    if (!response.ok) {
      const error = new Error(data.message || message("refused"));
      error.status = response.status;
      error.data = data;
      throw error;
    }
    return data;
  }

  document.addEventListener("click", async (event) => {
    const claim = event.target.closest("[data-claim], [data-handover]");
    if (!claim) return;
    event.preventDefault();
    claim.disabled = true;
    try {
      const reply = await post(claim.dataset.claim || claim.dataset.handover);
      window.location.assign(reply.url);
    } catch (err) {
      showError(err.message);
      claim.disabled = false;
    }
  });

  window.Tabletop = { message, showError, post };
})();
