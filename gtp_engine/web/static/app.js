// The page: one websocket to the server (the token is in this page's path), the board, the
// controls. Everything shown comes from the server, which reads it from the engine.

import { Board, drawGraph } from "./board.js";

const $ = (id) => document.getElementById(id);
const WORD = { b: "Black", w: "White" };
// A short "how to play" per game (from RULES.md; the engine judges every move).
const HOW_TO_PLAY = {
  go: ["Black and White place a stone in turn on an empty point, or pass; two passes in a row end the game.",
    "A group whose last liberty (empty neighbour) is filled is captured. Suicide is illegal, and no move may repeat an earlier whole board (superko).",
    "Score: your stones plus the empty regions only you surround; komi goes to White."],
  loose: ["As Go, but nothing is ever captured: stones are flipped.",
    "A liberty is false when it touches both colours and no empty point (marked red). After your move, every enemy group without a true liberty becomes yours.",
    "Every group must keep a true liberty, or the move is illegal.",
    "Score: your stones on the board, no territory. No draws: on equal scores the player who passed last loses."],
  goncrete: ["As Go, but a captured group is flipped to the capturer's colour and joins the capturing stone's group.",
    "Then one stone is removed from as many of the flipped groups as the new group allows (it must stay in one piece): the red crosses after a capture.",
    "No ko rule. A capture that leaves the opponent no stone ends the game at once.",
    "Score: stones and territory, as in Go."],
  disto: ["Nothing is ever removed or flipped.",
    "A group (a person) without liberties is a meal (red cross); a person next to a meal is a glutton (orange ring).",
    "You may not fill the last liberty of an enemy glutton; every other move is legal.",
    "Score: your stones that are not in a meal; no territory."],
  terrain: ["The board has plain, mountain and water points. First White, then Black, place forts on plain points; then Black moves first.",
    "Go's rules, plus: a stone on a mountain needs its group to have a liberty off the mountains; a stone on water needs its group to have a stone off the water. A fort is never a liberty and never holds a stone.",
    "Score: stones and territory, with the values below; an enemy fort inside your territory is worth its value to you."],
};

const NAMES = { go: "Go", loose: "Loose", goncrete: "Goncrete", disto: "Disto", terrain: "Terrain Go" };

let state = null;
let analysis = null;
let clockBase = null;   // {left, running, at} when the last state came
let socket = null;
let pinnedPv = null;    // the candidate move whose line stays drawn (clicked in the table)
let hoveredPv = null;   // the candidate row under the mouse (its line is drawn meanwhile)

// On a touch screen or a phone-sized window a tap shows the stone, and a second tap plays it.
const confirmTaps = () => matchMedia("(pointer: coarse), (max-width: 700px)").matches;
const board = new Board($("board"), (vertex) => send({ type: "play", vertex }), confirmTaps, (vertex) => {
  $("hint").hidden = !vertex;
  $("hint").textContent = vertex ? `${vertex}: tap it again to play there` : "";
});

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${location.pathname.replace(/\/?$/, "/")}ws`;
  socket = new WebSocket(url);
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    $("status").textContent = "disconnected from the server (is vargo-web still running?)";
    document.body.dataset.connected = "false";
    setTimeout(connect, 2000);
  });
  socket.addEventListener("open", () => { document.body.dataset.connected = "true"; });
}

// A refusal holds for the position it was made in: it goes when the position changes.
let messagePosition = null;

function positionKey(s) {
  return s ? JSON.stringify([s.moves, s.result, s.fort_turn, s.marks && s.marks.forts]) : null;
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  messagePosition = text ? positionKey(state) : null;
}

// Asks before an action that cannot be taken back (an in-page question: no blocking dialog).
let confirmed = null;

function confirmThen(question, action) {
  confirmed = action;
  $("confirm-text").textContent = question;
  $("confirm").hidden = false;
  $("confirm-no").focus();
}

function closeConfirm() {
  confirmed = null;
  $("confirm").hidden = true;
}

function receive(message) {
  switch (message.type) {
    case "state": showState(message); break;
    case "error": showMessage(message.message); break;
    case "thinking": showThinking(message.color, message.note, message.komi); break;
    case "analysis": showAnalysis(message); break;
    case "sgf": download(message.text); break;
  }
}

function showThinking(color, note, komi) {
  const box = $("thinking");
  box.hidden = !color;
  // komi: the engine's work is the map's fair komi, before anyone's move (the note says so)
  box.textContent = !color ? "" : komi ? `The engine is ${note}…`
    : `${WORD[color]} (engine) is thinking…${note ? ` (${note})` : ""}`;
  document.body.dataset.thinking = color || "";
}

function describeLast(last) {
  if (!last) return "";
  let text = `Last move: ${WORD[last.color]} ${last.vertex}`;
  const parts = [];
  for (const kind of ["captured", "flipped", "removed", "meals"]) {
    if (last[kind] && last[kind].length) parts.push(`${kind === "meals" ? "made a meal of" : kind} ${last[kind].join(" ")}`);
  }
  return parts.length ? `${text}: ${parts.join("; ")}` : text;
}

function showState(s) {
  state = s;
  if (messagePosition !== null && positionKey(s) !== messagePosition) showMessage("");
  $("engine-name").textContent = s.engine ? `engine: ${s.engine}` : "";
  $("dead").hidden = !s.dead;
  $("dead-text").textContent = s.dead ? `The engine has stopped: ${s.dead}. ` : "";
  if (s.dead) {
    $("status").textContent = "engine stopped";
    document.body.dataset.dead = "true";
    return;
  }
  document.body.dataset.dead = "false";
  board.draw(s);
  const players = s.players;
  let status;
  if (s.result) {
    const text = s.result.text;
    status = `Game over: ${text.startsWith(s.result.result) ? text : `${s.result.result} (${text})`}`;
  } else if (s.fort_turn) {
    status = `${WORD[s.fort_turn]} places a fort${players[s.fort_turn] === "human" ? ": click a plain point" : ""}`;
  } else {
    status = `${WORD[s.to_move]} to move${players[s.to_move] === "engine" && s.at === s.line.length ? " (engine)" : ""}`;
  }
  if (s.at < s.line.length) status = `Move ${s.at} of ${s.line.length}: ${status}. A move here starts a variation`;
  $("status").textContent = `${NAMES[s.variant] || s.variant} ${s.size}×${s.size}, komi ${s.komi}. ${status}`;
  document.body.dataset.over = s.result ? "true" : "false";
  document.body.dataset.paused = s.paused ? "true" : "false";
  document.body.dataset.players = `${players.b} ${players.w}`;
  document.body.dataset.moves = String(s.moves.length);
  document.body.dataset.at = String(s.at);
  document.body.dataset.line = String(s.line.length);
  showMoves(s);
  $("last-move").textContent = describeLast(s.last);
  showScore(s.score);
  showRules(s);
  const humanTurn = !s.result && players[s.fort_turn || s.to_move] === "human";
  $("pass").disabled = !humanTurn || !!s.fort_turn;
  $("resign").disabled = !humanTurn || !!s.fort_turn;
  $("undo").disabled = !s.moves.length && !s.result;
  const bothEngines = players.b === "engine" && players.w === "engine";
  $("pause").hidden = !(bothEngines || s.clock) || (!!s.result && !s.paused);
  $("pause").textContent = s.paused ? "Continue" : "Pause";
  $("analyze").disabled = !s.can_analyze || (!!s.result && !s.analysis_on);
  $("analyze").classList.toggle("on", s.analysis_on);
  $("analyze").textContent = s.analysis_on ? "Stop analysis" : "Analyze";
  if (!s.analysis_on) showAnalysis({ stopped: true });
  else if (analysis) board.drawAnalysis(null);   // the old position's analysis is gone
  analysis = null;
  pinnedPv = null;
  clockBase = s.clock ? { ...s.clock, at: performance.now() } : null;
  $("clocks").hidden = !s.clock;
  tickClock();
  drawGraph($("graph"), s.winrates || {}, s.moves.length);
  if (!document.activeElement || !$("new-game").contains(document.activeElement)) fillForm(s);
}

// The move list: every move of the line on show, numbered; the one on the board marked.
function showMoves(s) {
  const list = $("move-list");
  list.textContent = "";
  const branches = new Map((s.variations || []).map((v) => [v.number, v.choices]));
  s.line.forEach(([color, vertex], i) => {
    const item = document.createElement("li");
    item.dataset.number = String(i + 1);
    item.textContent = `${i + 1}. ${color.toUpperCase()} ${vertex}`;
    if (branches.has(i + 1)) item.classList.add("branch");
    if (i + 1 === s.at) item.classList.add("current");
    if (i + 1 > s.at) item.classList.add("ahead");
    item.addEventListener("click", () => goto(i + 1));
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  else list.scrollTop = 0;
  $("move-number").textContent = `move ${s.at} of ${s.line.length}`;
  $("first").disabled = $("back").disabled = s.at === 0;
  $("forward").disabled = $("end").disabled = s.at === s.line.length;
  const box = $("variations");
  box.textContent = "";
  box.hidden = !branches.size;
  for (const [number, choices] of branches) {
    const row = document.createElement("p");
    row.textContent = `Move ${number}: `;
    choices.forEach((choice, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "variation" + (choice.current ? " on" : "");
      button.dataset.number = String(number);
      button.dataset.index = String(index);
      button.textContent = `${choice.color.toUpperCase()} ${choice.vertex}`;
      button.addEventListener("click", () => send({ type: "variation", number, index }));
      row.appendChild(button);
    });
    box.appendChild(row);
  }
}

function goto(number) {
  if (!state || state.dead) return;
  const target = Math.max(0, Math.min(number, state.line.length));
  if (target !== state.at) send({ type: "goto", number: target });
}

const PARTS = ["stones", "territory", "water", "forts", "komi"];

// The position counted as the game counts it (the engine's vargo-score), live.
function showScore(score) {
  $("score").hidden = !score;
  if (!score) return;
  for (const color of ["b", "w"]) {
    const parts = score[color] || {};
    const shown = PARTS.filter((name) => name === "stones" ? "stones" in parts : parts[name])
      .map((name) => `${name} ${parts[name]}`);
    if (parts.meals) shown.push(`${parts.meals} in meals, not counted`);
    $(`score-${color}`).textContent = `${WORD[color]} ${parts.total}${shown.length ? ` (${shown.join(", ")})` : ""}`;
  }
  $("score-result").textContent = `Counted now: ${score.result}`;
}

function showRules(s) {
  const game = s.variant;
  if (document.body.dataset.rulesFor !== game) {
    document.body.dataset.rulesFor = game;
    $("rules-game").textContent = NAMES[game] || game;
    const box = $("how-to-play");
    box.textContent = "";
    for (const line of HOW_TO_PLAY[game] || []) {
      const p = document.createElement("p");
      p.textContent = line;
      box.appendChild(p);
    }
  }
  showLegend(s.score && s.score.values);
  const marks = s.rule_marks || {};
  const kinds = Object.keys(marks);
  $("rule-marks-toggle").hidden = !kinds.length;
  $("rule-marks-label").textContent = kinds.includes("false_liberties") ? "mark false liberties"
    : kinds.includes("gluttons") ? "mark gluttons" : "";
  board.drawRuleMarks($("show-rules").checked ? marks : {});
}

// Terrain Go's symbols and what each point is worth, the values as the engine counts them.
function showLegend(values) {
  const box = $("legend");
  box.hidden = !values;
  if (!values || box.dataset.shown === JSON.stringify(values)) return;
  box.dataset.shown = JSON.stringify(values);
  box.textContent = "";
  const rows = [["plain", "plain point", values.plain], ["water", "water", values.water],
    ["mountain", "mountain", values.mountain], ["fort", "fort (to the side that surrounds the enemy's)", values.fort]];
  for (const [kind, text, value] of rows) {
    const row = document.createElement("p");
    row.className = "legend-row";
    row.append(Board.symbol(kind), ` ${text}: ${value} point${value === 1 ? "" : "s"}`);
    row.dataset.kind = kind;
    box.appendChild(row);
  }
}

function fillForm(s) {
  $("variant").value = s.variant;
  $("size").value = s.size;
  $("komi").placeholder = `engine's default (now ${s.komi})`;
  $("black").value = s.players.b;
  $("white").value = s.players.w;
  terrainFields();
}

function showAnalysis(a) {
  const body = $("candidates").querySelector("tbody");
  if (a.stopped) {
    analysis = null;
    pinnedPv = null;
    $("analysis").hidden = true;
    board.drawAnalysis(null);
    body.textContent = "";
    document.body.dataset.analysis = "off";
    return;
  }
  if (!state || !state.analysis_on) return;
  analysis = a;
  document.body.dataset.analysis = "on";
  $("analysis").hidden = !a.moves.length;
  board.drawAnalysis(a);
  drawPinnedPv(a);
  const best = a.moves[0];
  $("estimate").textContent = best ? `The engine's estimate: ${best.lead >= 0 ? "Black" : "White"} leads by ` +
    `${Math.abs(best.lead).toFixed(1)}, Black wins ${(100 * best.winrate).toFixed(0)}% (${a.visits} visits)` : "";
  body.textContent = "";
  for (const m of a.moves.slice(0, 8)) {
    const row = document.createElement("tr");
    for (const text of [m.move, `${(100 * m.winrate).toFixed(1)}%`, String(m.visits), m.lead.toFixed(1)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    row.dataset.move = m.move;
    row.tabIndex = 0;
    row.classList.toggle("pinned", pinnedPv === m.move);
    // a click (or a tap: touch screens have no hover) pins the line; hover previews it
    row.addEventListener("click", () => { pinnedPv = pinnedPv === m.move ? null : m.move; showAnalysis(a); });
    body.appendChild(row);
  }
  if (a.winrate !== null && state) {
    state.winrates[String(state.moves.length)] = a.winrate;
    drawGraph($("graph"), state.winrates, state.moves.length);
  }
}

function drawPinnedPv(a) {
  const move = a.moves.find((m) => m.move === (hoveredPv || pinnedPv));
  if (move) board.drawPv(move.pv, a.color);
  else board.clear("pv");
}

function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tickClock() {
  if (!clockBase) return;
  for (const color of ["b", "w"]) {
    let left = clockBase.left[color];
    if (clockBase.running === color) left -= (performance.now() - clockBase.at) / 1000;
    const box = $(`clock-${color}`);
    box.textContent = formatTime(left) + (clockBase.byo_yomi[color] ? ` (byo-yomi ${clockBase.period}s)` : "");
    box.parentElement.classList.toggle("running", clockBase.running === color);
    box.parentElement.classList.toggle("low", left < 10);
  }
}

function download(text) {
  const blob = new Blob([text], { type: "application/x-go-sgf" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  const day = new Date().toISOString().slice(0, 10);
  link.download = `vargo-${state ? state.variant : "game"}-${day}.sgf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function terrainFields() {
  $("new-game").querySelector(".terrain-only").disabled = $("variant").value !== "terrain";
}

function number(id) {
  const text = $(id).value.trim();
  return text === "" ? null : Number(text);
}

$("variant").addEventListener("change", terrainFields);
$("new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  showMessage("");
  const message = {
    type: "new_game", variant: $("variant").value, size: number("size"), komi: number("komi"),
    black: $("black").value, white: $("white").value,
    main_time: 60 * (number("main-time") || 0), byo_yomi: number("byo-yomi") || 0,
  };
  if (message.variant === "terrain") {
    message.terrain_seed = number("terrain-seed");
    message.forts = $("forts").value;
    message.fair_komi = $("fair-komi").checked;
  }
  const going = state && state.moves.length && !state.result && !state.dead;
  if (going) confirmThen("Abandon the game in progress and start a new one?", () => send(message));
  else send(message);
});
$("show-rules").addEventListener("change", () => state && showRules(state));
$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => state && goto(state.at - 1));
$("forward").addEventListener("click", () => state && goto(state.at + 1));
$("end").addEventListener("click", () => state && goto(state.line.length));
const STEPS = { ArrowLeft: (at) => at - 1, ArrowRight: (at) => at + 1, Home: () => 0, End: () => Infinity };
document.addEventListener("keydown", (event) => {
  const step = STEPS[event.key];
  if (!step || !state || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  event.preventDefault();
  goto(step(state.at));
});
$("pass").addEventListener("click", () => send({ type: "pass" }));
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("resign").addEventListener("click", () => confirmThen(
  `Resign this game as ${state ? WORD[state.to_move] : "the side to move"}?`, () => send({ type: "resign" })));
$("confirm-yes").addEventListener("click", () => { const action = confirmed; closeConfirm(); if (action) action(); });
$("confirm-no").addEventListener("click", closeConfirm);
$("pause").addEventListener("click", () => send({ type: "pause", on: !(state && state.paused) }));
$("restart").addEventListener("click", () => { showMessage(""); send({ type: "restart" }); });
$("analyze").addEventListener("click", () => send({ type: "analyze", on: !(state && state.analysis_on) }));
$("save").addEventListener("click", () => send({ type: "save" }));
// on the table body, which stays while its rows are replaced by each report
$("candidates").tBodies[0].addEventListener("mouseover", (event) => {
  const row = event.target.closest("tr");
  hoveredPv = row ? row.dataset.move : null;
  if (analysis) drawPinnedPv(analysis);
});
$("candidates").tBodies[0].addEventListener("mouseleave", () => {
  hoveredPv = null;
  if (analysis) drawPinnedPv(analysis);
});
$("open-file").addEventListener("change", async () => {
  const file = $("open-file").files[0];
  if (!file) return;
  showMessage("");
  send({ type: "open", sgf: await file.text() });
  $("open-file").value = "";
});
// A click clears the last refusal, so the next one is news.
$("board").addEventListener("click", () => showMessage(""), true);
setInterval(tickClock, 250);
connect();
