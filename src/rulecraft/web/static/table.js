// The table page: fetch this seat's table (server-rendered HTML), select pieces, send moves.
// Nothing is decided here: the server checks every move and answers with the rule's own words.
"use strict";
(function () {
  const table = document.getElementById("table");
  const msg = document.getElementById("msg");
  const base = table.dataset.base;
  const hot = table.dataset.hot === "1";
  let version = Number(table.dataset.version);
  let shownSeat = null; // hot-seat: whose hand is on screen (null: covered)
  let busy = false;

  function say(text, isError) {
    msg.textContent = text || "";
    msg.className = isError ? "error" : "";
  }

  async function load() {
    const url = hot ? `${base}/table?seat=${shownSeat}` : `${base}/table`;
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) return;
    table.innerHTML = await r.text();
    wire();
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
    const fields = { move };
    if (hot) fields.seat = shownSeat;
    const r = await post(`${base}/move`, fields);
    if (r.ok) say(""); else say(r.error, true);
    await sync(true);
    table.classList.remove("waiting");
    busy = false;
  }

  // Hot-seat: cover the table whenever the seat to act changes, until that player asks to see it.
  const cover = document.getElementById("cover");
  const reveal = document.getElementById("reveal");
  let waitingFor = null;
  if (reveal) reveal.addEventListener("click", async () => {
    shownSeat = waitingFor;
    cover.hidden = true;
    await load();
  });

  async function sync(force) {
    const r = await fetch(hot ? `${base}/state` : `${base}/version`, { cache: "no-store" });
    if (!r.ok) return;
    const s = await r.json();
    if (hot) {
      const next = s.seat !== null ? s.seat : (s.over ? (shownSeat ?? s.humans[0]) : shownSeat);
      if (next !== shownSeat && next !== null) {
        waitingFor = next;
        shownSeat = null;
        table.innerHTML = "";
        document.getElementById("cover-text").textContent = `Pass the screen to seat ${next}.`;
        cover.hidden = false;
        version = s.version;
        return;
      }
    }
    if ((force || s.version !== version) && (!hot || shownSeat !== null)) {
      version = s.version;
      await load();
    }
  }

  // Ask the server now rather than at the next poll (tests; a page brought back to the front).
  window.rulecraftSync = () => sync(true);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) sync(false); });

  if (!hot) wire();
  sync(hot);
  setInterval(() => { if (!busy) sync(false); }, 1000);
})();
