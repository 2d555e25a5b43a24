// The table page: fetch this seat's table (server-rendered HTML), select pieces, send moves.
// Nothing is decided here: the server checks every move and answers with the rule's own words.
// Each move names the version of the table it answers (the version the fragment on screen shows),
// so a move sent twice, or after the table changed, is refused by the server: the first one wins.
// Hot-seat: the server keeps the cover; a seat's hand is sent only after its player lifted it.
"use strict";
(function () {
  const table = document.getElementById("table");
  const msg = document.getElementById("msg");
  const progress = document.getElementById("progress");
  const base = table.dataset.base;
  const role = table.dataset.role;
  const hot = role === "hot";
  let version = Number(table.dataset.version); // what the fragment on screen shows
  let busy = false;

  function say(text, isError) {
    msg.textContent = text || "";
    msg.className = isError ? "error" : "";
  }

  async function load() {
    const r = await fetch(`${base}/table`, { cache: "no-store" });
    if (!r.ok) return false;
    table.innerHTML = await r.text();
    version = Number(r.headers.get("X-Table-Version"));
    wire();
    return true;
  }

  function selected() {
    return [...table.querySelectorAll("#hand .piece.selected")].map((p) => p.dataset.piece);
  }

  function legal() {
    const moves = table.querySelector("#moves");
    return moves ? JSON.parse(moves.dataset.legal || "[]") : [];
  }

  function refreshConfirms() {
    const chosen = selected();
    for (const b of table.querySelectorAll("button.confirm")) b.disabled = chosen.length === 0 && !b.dataset.none;
  }

  function wire() {
    // Pieces that appear in some legal move are marked playable (a hint; the server decides).
    const inMoves = new Set();
    for (const m of legal()) for (const w of m.split(" ").slice(1)) inMoves.add(w);
    for (const p of table.querySelectorAll("#hand .piece[role=button]")) {
      if (inMoves.has(p.dataset.piece)) p.classList.add("playable");
      const toggle = () => { p.classList.toggle("selected"); refreshConfirms(); };
      p.addEventListener("click", toggle);
      p.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    }
    for (const b of table.querySelectorAll("button.move")) b.addEventListener("click", () => send(b.dataset.move));
    for (const b of table.querySelectorAll("button.confirm")) {
      b.addEventListener("click", () => {
        const verb = b.dataset.verb;
        const pieces = selected().join(" ");
        if (verb === "claim") {
          const value = table.querySelector("#claim-value").value;
          send(pieces ? `claim ${value}: ${pieces}` : `claim ${value}`);  // (a claim may put down nothing)
        } else {
          send(`${verb} ${pieces}`);
        }
      });
    }
    const undo = table.querySelector("#undo");
    if (undo) undo.addEventListener("click", async () => {
      const r = await post(`${base}/undo`, {});
      say(r.ok ? (r.undone ? `took back ${r.undone} move(s)` : "nothing to take back") : r.error, !r.ok);
      await sync(true);
    });
  }

  async function post(url, fields) {
    const body = new URLSearchParams(fields);
    const r = await fetch(url, { method: "POST", body });
    try { return await r.json(); } catch (e) { return { ok: false, error: `the server answered ${r.status}` }; }
  }

  async function send(move) {
    if (busy) return;
    busy = true;
    table.classList.add("waiting");
    const r = await post(`${base}/move`, { move, version });
    if (r.ok) say(""); else say(r.error, true);
    await sync(true);
    table.classList.remove("waiting");
    busy = false;
  }

  // Hot-seat: the cover shows whenever the server shows no seat; its player lifts it.
  const cover = document.getElementById("cover");
  const reveal = document.getElementById("reveal");
  let coverVersion = null;
  if (reveal) reveal.addEventListener("click", async () => {
    const r = await post(`${base}/reveal`, { version: coverVersion });
    if (!r.ok) { await sync(true); return; }
    cover.hidden = true;
    await load();
  });

  function showProgress(s) {
    if (s.problem) progress.textContent = `The game stopped: ${s.problem}`;
    else if (s.thinking !== null && s.thinking !== undefined) progress.textContent = `seat ${s.thinking} is thinking…`;
    else progress.textContent = "";
  }

  async function sync(force) {
    const r = await fetch(hot ? `${base}/state` : `${base}/version`, { cache: "no-store" });
    if (!r.ok) return;
    const s = await r.json();
    showProgress(s);
    if (hot) {
      if (s.shown === null && !s.over) {
        table.innerHTML = "";
        if (s.seat !== null) {
          document.getElementById("cover-text").textContent = `Pass the screen to seat ${s.seat}.`;
          coverVersion = s.version;
          cover.hidden = false;
        } else {
          cover.hidden = true; // the bots are moving
        }
        version = s.version;
        return;
      }
      cover.hidden = true;
    }
    if (force || s.version !== version) await load();
  }

  // Ask the server now rather than at the next poll (tests; a page brought back to the front).
  window.rulecraftSync = () => sync(true);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) sync(false); });

  if (!hot) wire();
  sync(hot);
  setInterval(() => { if (!busy) sync(false); }, 1000);
})();
