// The board, drawn from the table's event stream. Read-only: it only listens.
"use strict";
(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const L = cfg.labels, names = cfg.names;
  const COLORS = ["#5aa0ff", "#ff785a", "#78dc78", "#e678e6", "#fad250", "#50dcdc"];
  const root = document.getElementById("board");
  let last = null, windowTimer = null;

  // Python-style "{name}", "{t:.1f}" and "{n:+d}" placeholders, as the screen's words use them.
  function fmt(template, values) {
    return String(template).replace(/\{(\w+)(?::([^}]*))?\}/g, (all, key, spec) => {
      if (!(key in values)) return all;
      let v = values[key];
      if (spec && /^\.(\d)f$/.test(spec)) v = Number(v).toFixed(Number(spec[1]));
      else if (spec === "+d") v = (v >= 0 ? "+" : "") + v;
      return String(v);
    });
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  const nameOf = (id) => names[id] || id;
  function colorOf(state, pid) {
    const i = state.players.findIndex((p) => p.id === pid);
    return COLORS[(i < 0 ? 0 : i) % COLORS.length];
  }
  // The name as the box's screen shows it (the default "Player N" in the table's language).
  function playerName(state, pid) {
    const shown = state.board && state.board.names ? state.board.names[pid] : undefined;
    if (shown) return shown;
    const p = state.players.find((q) => q.id === pid);
    return p ? p.name : pid;
  }

  function playerCard(state, p, mine) {
    const box = el("section", "player" + (mine ? " mine" : "") + (p.id === state.active_player ? " active" : "") +
      (p.alive ? "" : " dead"));
    box.id = "card-" + p.id;
    box.dataset.player = p.id;
    box.style.setProperty("--c", colorOf(state, p.id));
    const head = el("div", "head");
    const name = el(mine ? "span" : "a", "name", playerName(state, p.id));
    if (!mine) name.href = "/p/" + p.id + "?key=" + encodeURIComponent(cfg.key);   // your own page, large
    if (last && last.board && last.board.acting === p.id && p.id !== state.active_player) name.append(el("span", "tag", L.acting));
    if (!p.alive) name.append(el("span", "tag", L.dead));
    const seat = state.board && state.board.seats ? state.board.seats[p.id] : undefined;
    if (seat !== undefined) name.append(el("span", "tag seat", fmt(L.seat, {n: seat})));
    const nums = el("span", "nums");
    const lvl = el("span", "lvl", String(p.level));
    lvl.dataset.level = String(p.level);
    lvl.title = L.level;
    nums.append(el("span", "unit", L.level + " "), lvl, el("span", "str", L.strength + " " + p.combat_strength));
    head.append(name, nums);
    box.append(head);
    const who = [...(p.races.length ? p.races.map(nameOf) : [L.human]), ...p.classes.map(nameOf)];
    box.append(el("div", "who", who.join(" · ")));
    if (p.equipped.length || p.carried.length) {
      const gear = el("div", "gear");
      gear.append(L.gear + ": " + p.equipped.map(nameOf).join(", ") + (p.equipped.length && p.carried.length ? ", " : ""));
      if (p.carried.length) gear.append(el("span", "carried", p.carried.map(nameOf).join(", ") + " " + L.carried));
      box.append(gear);
    }
    const curses = [...p.curses, ...(p.next_combat || [])];
    if (curses.length) box.append(el("div", "curses", L.curses + ": " + curses.map(nameOf).join(", ")));
    return box;
  }

  function combatPanel(state, board) {
    const c = state.combat;
    const box = el("section", "combat");
    box.id = "combat";
    const sides = el("div", "sides");
    const ps = el("div", "side players-side");
    ps.append(el("h3", null, L.players), el("div", "total", String(c.players_strength)));
    c.fighters.forEach((f, i) => {
      const line = el("div", "line", playerName(state, f));
      if (i > 0 || f === c.helper) line.append(el("span", "small", " (" + L.helper + ")"));
      ps.append(line);
    });
    (c.one_shots || []).forEach((s) => {
      if (s.side !== "monsters") ps.append(el("div", "small", nameOf(s.card) + " " + fmt("{n:+d}", {n: s.bonus})));
    });
    const ms = el("div", "side monsters-side");
    ms.append(el("h3", null, L.monsters), el("div", "total", String(c.monsters_strength)));
    c.monsters.forEach((m) => {
      ms.append(el("div", "line", nameOf(m.card) + " · " + m.strength));
      if (m.enhancers.length) ms.append(el("div", "small", m.enhancers.map(nameOf).join(", ")));
      const info = board && board.monsters ? board.monsters[m.card] : null;
      if (info && info.bad_stuff) ms.append(el("div", "small", fmt(L.bad_stuff, {text: info.bad_stuff})));
      if (info) ms.append(el("div", "small", fmt(L.treasures, {t: info.treasures, l: info.levels})));
    });
    (c.one_shots || []).forEach((s) => {
      if (s.side === "monsters") ms.append(el("div", "small", nameOf(s.card) + " " + fmt("{n:+d}", {n: s.bonus})));
    });
    sides.append(ps, ms);
    box.append(sides);
    const diff = c.players_strength - c.monsters_strength;
    let text;
    if (c.players_winning) text = diff > 0 ? fmt(L.players_win, {n: diff}) : L.players_tie;
    else text = diff < 0 ? fmt(L.monsters_win, {n: -diff}) : L.monsters_tie;
    const margin = el("div", "margin " + (c.players_winning ? "good" : "bad"), text);
    margin.id = "margin";
    box.append(margin);
    if (board && board.window_left !== null && board.window_left !== undefined && board.window_total > 0) {
      const until = performance.now() + board.window_left * 1000;
      const bar = el("div", "window"), fill = el("div");
      const label = el("div", "window-text");
      bar.append(fill);
      box.append(label, bar);
      const tick = () => {
        const left = Math.max(0, (until - performance.now()) / 1000);
        fill.style.width = (100 * left / board.window_total) + "%";
        label.textContent = fmt(L.interfere, {t: left});
        if (left <= 0) { clearInterval(windowTimer); windowTimer = null; }
      };
      tick();
      windowTimer = setInterval(tick, 100);
    }
    return box;
  }

  function chart(state) {
    const players = state.players;
    const top = Math.max(state.ruleset ? state.ruleset.winning_level : 10,
      ...players.map((p) => Math.max(1, ...(p.level_history || [p.level]))));
    const turns = Math.max(1, ...players.map((p) => (p.level_history || []).length - 1));
    const W = 320, H = 180, pad = 22;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    const x = (i) => pad + (W - 2 * pad) * i / turns, y = (l) => H - pad - (H - 2 * pad) * (l - 1) / Math.max(1, top - 1);
    const axis = document.createElementNS(ns, "path");
    axis.setAttribute("d", `M${pad} ${pad} V${H - pad} H${W - pad}`);
    axis.setAttribute("stroke", "#888c98");
    axis.setAttribute("fill", "none");
    svg.append(axis);
    for (const [t, xx, yy] of [[String(top), 2, y(top) + 4], ["1", 8, y(1) + 4], [L.turns, W - pad - 30, H - 6]]) {
      const tx = document.createElementNS(ns, "text");
      tx.setAttribute("x", xx); tx.setAttribute("y", yy); tx.textContent = t;
      svg.append(tx);
    }
    players.forEach((p, i) => {
      const hist = (p.level_history && p.level_history.length) ? p.level_history : [p.level];
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", hist.map((l, j) => `${x(j)},${y(l)}`).join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", COLORS[i % COLORS.length]);
      line.setAttribute("stroke-width", "2.5");
      line.dataset.player = p.id;
      svg.append(line);
    });
    return svg;
  }

  // What the player whose turn it is can do now: the table's own list (the state JSON's "can"),
  // a button in its colour with its name, a tap with a card.
  const BUTTON_COLORS = {roll: "#dc3c3c", help: "#3c8cf0", run: "#f0c828", next: "#46c85a", undo: "#b4b4b4"};
  function canPanel(can) {
    const box = el("section", "can");
    box.id = "can";
    box.append(el("h2", null, L.can));
    const list = el("ul");
    for (const item of can) {
      const row = el("li");
      row.dataset.how = item.how;
      const button = item.how.startsWith("press ") ? item.how.slice(6) : null;
      const mark = el("span", "how");
      const chip = el("span", button ? "button" : "card", button ? L["button_" + button] || button : "");
      if (button && BUTTON_COLORS[button]) chip.style.setProperty("--b", BUTTON_COLORS[button]);
      mark.append(chip);
      row.append(mark, el("span", "what", item.what));
      list.append(row);
    }
    box.append(list);
    return box;
  }

  // The links to past games and standings never change: one element, moved into each new board, so
  // that a tap on a link while the board is redrawn under it still lands on the link.
  let nav = null;
  function recordsNav() {
    if (!nav) {
      nav = el("nav", "records");
      for (const [path, label] of [["/history", L.history], ["/stats", L.stats]]) {
        const a = el("a", null, label);
        a.href = path + "?key=" + encodeURIComponent(cfg.key);
        nav.append(a);
      }
    }
    return nav;
  }

  function render(state) {
    if (windowTimer) { clearInterval(windowTimer); windowTimer = null; }
    const board = state.board || {};
    const frag = document.createDocumentFragment();
    const top = el("header", "top");
    const phase = el("span", "phase", L[state.phase] || state.phase);
    phase.id = "phase";
    phase.dataset.phase = state.phase;
    top.append(phase);
    if (state.phase !== "setup") {
      const who = state.active_player ? " · " + playerName(state, state.active_player) : "";
      top.append(el("span", "turn", fmt(L.turn, {n: state.turn}) + who));
    }
    frag.append(top);
    const msg = el("div", "message" + (board.message_kind === "refusal" ? " refusal" : ""), board.message || "");
    msg.id = "message";
    frag.append(msg);
    const prompt = el("div", "prompt", board.prompt || "");
    prompt.id = "prompt";
    frag.append(prompt);
    if (state.phase === "game-over") {
      const over = el("section", "over");
      over.id = "game-over";
      over.append(el("div", "winners", fmt(L.won, {names: state.winners.map((w) => playerName(state, w)).join(", ")})));
      over.append(chart(state));
      const legend = el("div", "legend");
      state.players.forEach((p, i) => {
        const s = el("span", null, "■ " + playerName(state, p.id) + " " + p.level);
        s.style.color = COLORS[i % COLORS.length];
        legend.append(s);
      });
      over.append(legend);
      frag.append(over);
    }
    const mine = cfg.mode === "player" ? state.players.find((p) => p.id === cfg.player) : null;
    if (mine) frag.append(playerCard(state, mine, true));
    if (mine && state.active_player === mine.id && state.can && state.can.length) frag.append(canPanel(state.can));
    if (state.combat) frag.append(combatPanel(state, board));
    const list = el("div", "players");
    list.id = "players";
    state.players.forEach((p) => { if (p !== mine) list.append(playerCard(state, p, false)); });
    if (!state.players.length) {
      const rules = state.ruleset || {};
      list.append(el("div", "message", fmt(L.join, {lo: rules.min_players || 3, hi: rules.max_players || 6})));
    }
    frag.append(list);
    if (cfg.mode !== "overlay") frag.append(recordsNav());
    root.replaceChildren(frag);
    root.dataset.actions = String(board.actions === undefined ? "" : board.actions);
  }

  // Not blank, ever: the board from /api/state first, then the event stream; a refusal (the table
  // busy, a 503 that EventSource would never retry) or a drop shows a notice at the top and tries
  // again, waiting longer each time (1 s doubling to 30 s, with some jitter).
  const status = document.getElementById("status");
  let source = null, wait = 1000, retryTimer = null, live = false, shutOut = false;
  function notice(text) {
    status.textContent = text || "";
    status.hidden = !text;
    document.documentElement.dataset.status = text ? (live ? "offline" : "busy") : "live";
  }
  function show(state) {
    last = state;
    render(last);
    document.documentElement.dataset.updates = String((Number(document.documentElement.dataset.updates) || 0) + 1);
  }
  function snapshot() {
    return fetch("/api/state?board=1&key=" + encodeURIComponent(cfg.key), {cache: "no-store", credentials: "same-origin"})
      .then((r) => {
        if (r.status === 403) { shutOut = true; return null; }      // the key was rotated: no use retrying
        return r.ok ? r.json() : null;
      })
      .then((state) => { if (state) { show(state); document.documentElement.dataset.snapshot = "1"; } })
      .catch(() => {});
  }
  function retry() {
    if (source) { source.close(); source = null; }
    if (retryTimer) return;
    notice(live ? L.offline : L.busy);
    live = false;
    const delay = wait * (0.8 + 0.4 * Math.random());
    wait = Math.min(30000, wait * 2);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      snapshot().then(() => { if (shutOut) notice(L.rekey); else connect(); });
    }, delay);
  }
  function connect() {
    source = new EventSource("/events?key=" + encodeURIComponent(cfg.key));
    source.onmessage = (ev) => {
      let state;
      try { state = JSON.parse(ev.data); } catch (e) { return; }
      if (!live) { live = true; wait = 1000; notice(""); }
      show(state);
    };
    source.onerror = () => {
      // CLOSED: refused (503) or ended; CONNECTING: the browser retries on its own, but the
      // notice shows meanwhile, and a stream that does not come back is retried here.
      if (!source || source.readyState === EventSource.CLOSED) retry();
      else { notice(L.offline); live = false; }
    };
  }
  document.title = L.title;
  notice("");
  snapshot().then(connect);
})();
