// SPDX-License-Identifier: GPL-3.0-or-later
// Ordvakt live page: state pushed over server-sent events (polling /api/state when they fail);
// clocks count down here between events from the reading, its time and whose clock runs.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let T = {};            // strings of the page language
  let state = null;      // the latest snapshot
  let offset = 0;        // server time - local time, seconds
  let lastHeard = 0;     // local ms when the server last said anything
  let source = null;
  let pollTimer = null;

  function t(key, args) {
    let text = T[key] || key;
    for (const [k, v] of Object.entries(args || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function fmt(ms) {
    const neg = ms < 0;
    const s = neg ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
    return (neg ? "-" : "") + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  async function loadStrings() {
    const lang = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
    const r = await fetch("/api/strings?lang=" + encodeURIComponent(lang));
    const data = await r.json();
    T = data.strings;
    document.documentElement.lang = data.language;
    document.title = t("title");
    $("title").textContent = t("title");
    $("h-moves").textContent = t("heading.moves");
    $("h-unseen").textContent = t("heading.unseen");
    $("h-archive").textContent = t("heading.archive");
    $("h-photo").textContent = t("heading.photo");
  }

  // -- receiving ------------------------------------------------------------------------------
  function receive(snapshot) {
    lastHeard = Date.now();
    offset = snapshot.server_time - Date.now() / 1000;
    state = snapshot;
    render();
  }
  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource("/api/events");
    source.addEventListener("state", (e) => receive(JSON.parse(e.data)));
    source.onopen = () => { lastHeard = Date.now(); stopPolling(); };
    source.onerror = () => { if (source.readyState === EventSource.CLOSED) { source = null; startPolling(); } };
  }
  function startPolling() {
    if (pollTimer) return;
    const poll = async () => {
      try {
        const r = await fetch("/api/state", { cache: "no-store" });
        if (r.ok) receive(await r.json());
      } catch (e) { /* offline: the indicator says so */ }
      if (!source) connect();  // try the push stream again
    };
    pollTimer = setInterval(poll, 2000);
    poll();
  }
  function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }

  // -- drawing --------------------------------------------------------------------------------
  function status() {
    const pill = $("status");
    let cls = "playing", text = t("status.playing");
    const silent = (Date.now() - lastHeard) / 1000;
    if (!state || lastHeard === 0 || silent > 25) { cls = "offline"; text = t("status.offline"); }
    else if (state.kind === "none") {
      cls = state.device ? "quiet" : "paused";
      text = state.device ? t("status.unavailable") : t("status.waiting");
      pill.title = state.device || "";
    }
    else if (state.finished) { cls = "finished"; text = t("status.finished"); }
    else if (state.quiet_s > 0) { cls = "quiet"; text = t("status.quiet", { s: Math.round(state.quiet_s) }); }
    else if (state.clock && state.clock.paused) { cls = "paused"; text = t("status.paused"); }
    pill.className = "pill " + cls;
    pill.dataset.state = cls;
    pill.textContent = text;
  }

  function clockMs(player) {
    const c = state && state.clock;
    if (!c) return null;
    const single = c.remaining_ms.length === 1;
    if (single && c.player !== player) return null;
    let ms = single ? c.remaining_ms[0] : c.remaining_ms[player];
    const online = lastHeard > 0 && Date.now() - lastHeard < 25000;
    if (c.running === player && online) {  // cut off from the device: show the last reading, not a guess
      ms -= (Date.now() / 1000 + offset - c.as_of) * 1000;
      if (c.type !== "chess") ms = Math.max(0, ms);
    }
    return ms;
  }

  function renderPlayers() {
    const box = $("players");
    box.replaceChildren();
    (state.players || []).forEach((p, i) => {
      const card = el("div", "player" + (state.to_move === i ? " to-move" : ""));
      card.dataset.player = i;
      card.append(el("div", "name", p.name + (state.to_move === i ? " · " + t("label.to_move") : "")));
      card.append(el("div", "score", p.score !== undefined ? p.score : ""));
      const clock = el("div", "clock");
      clock.dataset.player = i;
      card.append(clock);
      if (p.tiles !== undefined && !state.finished) card.append(el("div", "meta", t("label.tiles", { n: p.tiles })));
      if (p.rack !== undefined) card.append(el("div", "rack", t("label.rack", { rack: p.rack || "—" })));
      if (p.rail) {
        card.append(el("div", "meta", t("label.words", { n: p.words, target: state.target_words })));
        const rail = el("div", "rail");
        p.rail.forEach((w) => rail.append(el("span", "", w)));
        card.append(rail);
      }
      if (p.rounds) card.append(el("div", "meta", p.rounds.join(" · ")));
      box.append(card);
    });
    tickClocks();
  }

  function tickClocks() {
    if (!state) return;
    document.querySelectorAll(".clock").forEach((node) => {
      const i = Number(node.dataset.player);
      const ms = clockMs(i);
      const c = state.clock;
      const label = c && c.type === "turn" ? t("label.turn_timer") + " " : c && c.type === "round" ?
        t("label.round_timer") + " " : "";
      node.textContent = ms === null ? "" : label + fmt(ms);
      node.classList.toggle("running", !!state.clock && state.clock.running === i);
      node.classList.toggle("overtime", ms !== null && ms < 0);
    });
  }

  function renderBoard() {
    const board = $("board");
    const b = state.board;
    $("board-wrap").classList.toggle("hidden", !b);
    if (!b) { board.replaceChildren(); return; }
    board.style.gridTemplateColumns = "repeat(" + b.size + ", 1fr)";
    const tiles = new Map(b.tiles.map((x) => [x[0] * 100 + x[1], x]));
    const last = new Set(b.last.map((x) => x[0] * 100 + x[1]));
    const cells = [];
    for (let r = 0; r < b.size; r++) {
      for (let c = 0; c < b.size; c++) {
        const tile = tiles.get(r * 100 + c);
        const premium = b.premiums[r][c];
        const sq = el("div", "sq" + (premium !== "." ? " " + premium : ""));
        if (tile) {
          sq.className = "sq tile" + (tile[3] ? " blank" : "") + (last.has(r * 100 + c) ? " last" : "");
          sq.textContent = tile[2];
          sq.dataset.square = r + "," + c;
        } else if (premium !== ".") {
          sq.textContent = premium;
        }
        cells.push(sq);
      }
    }
    board.replaceChildren(...cells);
  }

  function moveLabel(m) {
    switch (m.kind) {
      case "pass": return t("move.pass");
      case "exchange": return t("move.exchange", { n: m.text.slice(1) });
      case "withdraw": return t("move.withdraw");
      case "challenge-bonus": return t("move.challenge");
      case "time-penalty": return t("move.time");
      case "rack-points": return t("move.rack", { rack: m.rack || "" });
      default: return m.text;
    }
  }

  function renderSide() {
    const table = $("moves");
    table.replaceChildren();
    const moves = state.moves || [];
    moves.forEach((m, i) => {
      const row = el("tr", i === moves.length - 1 ? "last" : "");
      row.append(el("td", "num", m.n), el("td", "", state.players[m.player].name), el("td", "", moveLabel(m)),
                 el("td", "", (m.words || []).join(", ")), el("td", "num", (m.score > 0 ? "+" : "") + m.score),
                 el("td", "num", m.total));
      table.append(row);
    });
    const wrap = $("moves-wrap");
    wrap.scrollTop = wrap.scrollHeight;
    $("h-moves").classList.toggle("hidden", !state.moves);
    $("h-unseen").classList.toggle("hidden", !state.unseen);
    if (state.unseen) {
      $("bag").textContent = t("label.bag", { n: state.bag, u: state.unseen_count });
      const box = $("unseen");
      box.replaceChildren(...Object.entries(state.unseen).map(([k, n]) => el("span", "", n > 1 ? k + n : k)));
    } else {
      $("bag").textContent = state.target ? t("label.target", { n: state.target }) +
        (state.round ? " · " + t("label.round", { n: state.round }) : "") : "";
      $("unseen").replaceChildren();
    }
    const banner = $("banner");
    let text = "";
    const ch = state.challenge;
    if (ch && ch.result === "withdrawn") text = t("label.withdrawn");
    else if (ch && ch.result === "bonus") text = t("label.bonus", { points: ch.points, name: state.players[ch.player].name });
    if (state.finished && state.players) {
      const winners = state.winners || [];
      text = winners.length === 1 ? t("label.winner", { name: state.players[winners[0]].name }) : t("label.draw");
    }
    banner.hidden = !text;
    banner.textContent = text;
    const photo = (state.moves || []).length && state.photo_seq !== undefined && state.photo_seq !== null;
    $("photo-wrap").hidden = !photo;
    if (photo) {
      const src = "/api/photos/" + state.game_id + "/" + state.photo_seq + ".jpg";
      if ($("photo").getAttribute("src") !== src) $("photo").src = src;
    }
  }

  function renderArchive() {
    const list = $("games");
    const games = state.finished_games || [];
    if (!games.length) { list.replaceChildren(el("li", "", t("label.no_games"))); return; }
    list.replaceChildren(...games.map((g) => {
      const li = el("li", "", "#" + g.id + " " + g.players.join(" – ") + " (" + g.created.slice(0, 10) + ") ");
      for (const form of (g.gcg ? ["gcg", "json", "zip"] : ["json", "zip"])) {
        const a = el("a", "", form.toUpperCase());
        a.href = "/api/games/" + g.id + "." + form;
        a.setAttribute("download", "");
        li.append(a);
      }
      return li;
    }));
  }

  function render() {
    status();
    if (!state || state.kind === "none") {
      $("players").replaceChildren(); $("board").replaceChildren(); $("moves").replaceChildren();
      if (state) renderArchive();
      return;
    }
    document.body.dataset.kind = state.kind;
    document.body.dataset.seq = state.seq;
    renderPlayers();
    renderBoard();
    renderSide();
    renderArchive();
  }

  loadStrings().catch(() => {}).then(() => { render(); connect(); });
  setInterval(() => { tickClocks(); status(); }, 250);
})();
