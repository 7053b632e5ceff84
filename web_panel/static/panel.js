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

  /* Show ``text`` in the banner (``sticky``: until the page changes, else for 8 s). */
  function showError(text, sticky) {
    const box = document.getElementById("message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(showError.timer);
    if (text && !sticky) {
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
      const code = document.getElementById("join-code");
      const body = claim.dataset.claim && code ? { code: code.value.trim() } : {};
      const reply = await post(claim.dataset.claim || claim.dataset.handover, body);
      window.location.assign(reply.url);
    } catch (err) {
      showError(err.message);
      claim.disabled = false;
    }
  });

  window.Tabletop = { message, showError, post };
})();
