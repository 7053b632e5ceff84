/* Shared by every page: messages, JSON POSTs with the CSRF header, the error banner, joining,
   and times shown relative to now ("3 min ago") with the phone's local date as their tooltip. */
"use strict";
(function () {
  // the panel's texts (their own script, web_panel/page_bundles.py), then the page's (a game's)
  const messages = Object.assign({}, window.TabletopTexts,
    JSON.parse(document.getElementById("messages").textContent || "{}"));

  /* The message ``key`` in the page's language, its blanks ({name}) filled from ``values`` (in
     one pass: a value's own braces stay as they are; a blank with no value stays as it is).
     Each message is split at its blanks once (a move log describes every move with one). */
  function message(key, values) {
    const text = messages[key] || key;
    if (!values) return text;
    let parts = split.get(text);
    if (parts === undefined) {
      parts = text.split(BLANK);  // text, name, text, name, …, text
      split.set(text, parts);
    }
    let out = parts[0];
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i];
      out += (name in values ? String(values[name]) : "{" + name + "}") + parts[i + 1];
    }
    return out;
  }
  const BLANK = /\{([^{}]+)\}/;
  const split = new Map();

  /* Show a refusal in the banner: ``what`` is a text or an error from ``post`` (its sentence,
     and the rules' own wording folded away when the server gave one). ``sticky``: until the
     page changes, else for 8 s. */
  function showError(what, sticky) {
    const box = document.getElementById("message");
    if (!box) return;
    const text = what && typeof what === "object" ? what.message : (what || "");
    const detail = what && typeof what === "object" ? what.detail : null;
    box.replaceChildren(document.createTextNode(text));
    if (detail) {
      const more = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = message("refusal.detail");
      const words = document.createElement("p");
      words.lang = "en";
      words.textContent = detail;
      more.append(summary, words);
      box.appendChild(more);
    }
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
      error.detail = data.detail || null;
      error.data = data;
      throw error;
    }
    return data;
  }

  /* How long ago a stamp was, counted as web_panel/times.py counts. */
  function ago(stamp) {
    const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(stamp)) / 1000));
    for (const [size, one, many] of [[86400, "ago.day", "ago.days"], [3600, "ago.hour", "ago.hours"],
      [60, "ago.min", "ago.mins"]]) {
      if (seconds >= size) {
        const n = Math.floor(seconds / size);
        return message(n === 1 ? one : many, { n });
      }
    }
    return message("ago.now");
  }

  /* The times on the page (or ``nodes``), each written only when its words change. */
  let dates = null;
  function freshenTimes(nodes) {
    for (const node of nodes || document.querySelectorAll("time[data-ago]")) {
      const stamp = node.getAttribute("datetime");
      if (Number.isNaN(Date.parse(stamp))) continue;
      const text = ago(stamp);
      if (node.textContent !== text) node.textContent = text;
      if (node._titled !== stamp) {
        // made when first needed: a page without times never pays for the locale's formats
        if (!dates) {
          dates = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
            { dateStyle: "medium", timeStyle: "short" });
        }
        node.title = dates.format(new Date(stamp));
        node._titled = stamp;  // a stamp's date never changes
      }
    }
  }
  freshenTimes();
  setInterval(freshenTimes, 30000);

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
      showError(err);
      claim.disabled = false;
    }
  });

  window.Tabletop = { message, showError, post, ago, freshenTimes };
})();
