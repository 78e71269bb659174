// The board in SVG, drawn from the engine's views (the page knows no rules).
// Every point's shapes carry data-vertex (e.g. "D4") so that tests and styles can find them.

const NS = "http://www.w3.org/2000/svg";
export const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const CELL = 40;
const MARGIN = 48;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function vertexOf(row, col, size) {   // row from the top
  return COLUMNS[col] + String(size - row);
}

function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const points = [[edge, edge], [edge, far], [far, edge], [far, far]];
  if (size % 2 === 1 && size >= 9) {
    const mid = (size - 1) / 2;
    points.push([mid, mid]);
    if (size >= 13) points.push([edge, mid], [far, mid], [mid, edge], [mid, far]);
  }
  return points;
}

export class Board {
  // onClick(vertex) is called for a click on a point; when confirmTaps() says so (a touch
  // screen, a phone-sized window), the first tap only shows the stone and a second tap on the
  // same point plays it. onPreview(vertex or null) hears of the shown stone.
  constructor(container, onClick, confirmTaps = () => false, onPreview = () => {}) {
    this.container = container;
    this.onClick = onClick;
    this.confirmTaps = confirmTaps;
    this.onPreview = onPreview;
    this.size = 0;
    this.layers = {};
    this.preview = null;
    this.toMove = "b";
  }

  tap(vertex) {
    if (!this.confirmTaps() || this.preview === vertex) {
      this.showPreview(null);
      this.onClick(vertex);
      return;
    }
    this.showPreview(vertex);
  }

  showPreview(vertex) {
    this.preview = vertex;
    if (!this.layers.preview) return;
    this.clear("preview");
    if (vertex) {
      const [x, y] = this.xy(vertex);
      el("circle", { cx: x, cy: y, r: CELL / 2 - 2, class: `preview ${this.toMove}`, "data-vertex": vertex },
        this.layers.preview);
    }
    this.onPreview(vertex);
  }

  xy(vertex) {
    const col = COLUMNS.indexOf(vertex[0].toUpperCase());
    const row = this.size - parseInt(vertex.slice(1), 10);
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  build(size) {
    this.size = size;
    const span = 2 * MARGIN + (size - 1) * CELL;
    this.container.textContent = "";
    const svg = el("svg", { viewBox: `0 0 ${span} ${span}`, role: "img" }, this.container);
    el("rect", { x: 0, y: 0, width: span, height: span, fill: "#dcb46a", class: "wood" }, svg);
    for (const name of ["terrain", "grid", "ownership", "forts", "stones", "marks", "rules", "analysis", "pv", "preview", "points"]) {
      this.layers[name] = el("g", { class: name }, svg);
    }
    const grid = this.layers.grid;
    const end = MARGIN + (size - 1) * CELL;
    for (let i = 0; i < size; i++) {
      const at = MARGIN + i * CELL;
      el("line", { x1: MARGIN, y1: at, x2: end, y2: at }, grid);
      el("line", { x1: at, y1: MARGIN, x2: at, y2: end }, grid);
      for (const [x, y, text] of [[at, MARGIN / 2 - 6, COLUMNS[i]], [at, end + MARGIN / 2 + 6, COLUMNS[i]],
        [MARGIN / 2 - 6, at, String(size - i)], [end + MARGIN / 2 + 6, at, String(size - i)]]) {
        el("text", { x, y, class: "coord" }, grid).textContent = text;
      }
    }
    for (const [r, c] of starPoints(size)) {
      el("circle", { cx: MARGIN + c * CELL, cy: MARGIN + r * CELL, r: 3.5, class: "star" }, grid);
    }
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const vertex = vertexOf(r, c, size);
        const rect = el("rect", { x: MARGIN + (c - 0.5) * CELL, y: MARGIN + (r - 0.5) * CELL, width: CELL,
          height: CELL, class: "point", "data-vertex": vertex }, this.layers.points);
        rect.addEventListener("click", () => this.tap(vertex));
      }
    }
  }

  clear(layer) { this.layers[layer].textContent = ""; }

  // state: the server's view (board rows, marks, last move).
  draw(state) {
    if (state.size !== this.size) this.build(state.size);
    this.toMove = state.fort_turn || state.to_move || "b";
    this.showPreview(null);   // a new position: the stone shown before may not fit it
    for (const layer of ["terrain", "forts", "stones", "marks"]) this.clear(layer);
    const marks = state.marks || { mountains: [], water: [], forts: {}, meals: [] };
    const half = CELL / 2;
    for (const vertex of marks.water) {
      const [x, y] = this.xy(vertex);
      el("rect", { x: x - half, y: y - half, width: CELL, height: CELL, class: "water", "data-vertex": vertex },
        this.layers.terrain);
    }
    for (const vertex of marks.mountains) {
      const [x, y] = this.xy(vertex);
      el("polygon", { points: `${x - 16},${y + 13} ${x},${y - 16} ${x + 16},${y + 13}`, class: "mountain",
        "data-vertex": vertex }, this.layers.terrain);
    }
    for (const [vertex, owner] of Object.entries(marks.forts)) {
      const [x, y] = this.xy(vertex);
      // a small keep with battlements
      el("path", { d: `M${x - 13},${y + 13} V${y - 13} h7 v6 h5 v-6 h2 v6 h5 v-6 h7 V${y + 13} Z`,
        class: `fort ${owner}`, "data-vertex": vertex }, this.layers.forts);
    }
    const last = state.last || {};
    const flipped = new Set(last.flipped || []);
    const meals = new Set(marks.meals);
    (state.board || []).forEach((row, r) => row.forEach((stone, c) => {
      if (stone === ".") return;
      const vertex = vertexOf(r, c, state.size);
      const [x, y] = this.xy(vertex);
      const classes = ["stone", stone];
      if (meals.has(vertex)) classes.push("in-meal");
      if (flipped.has(vertex)) classes.push("was-flipped");
      el("circle", { cx: x, cy: y, r: half - 2, class: classes.join(" "), "data-vertex": vertex }, this.layers.stones);
      if (meals.has(vertex)) {   // a meal: a red cross over the stone
        el("path", { d: `M${x - 9},${y - 9} L${x + 9},${y + 9} M${x + 9},${y - 9} L${x - 9},${y + 9}`,
          class: "meal", "data-vertex": vertex }, this.layers.marks);
      }
    }));
    for (const vertex of flipped) {
      const [x, y] = this.xy(vertex);
      el("circle", { cx: x, cy: y, r: half - 5, class: "flipped", "data-vertex": vertex }, this.layers.marks);
    }
    for (const kind of ["removed", "captured"]) {
      for (const vertex of last[kind] || []) {
        const [x, y] = this.xy(vertex);
        el("path", { d: `M${x - 7},${y - 7} L${x + 7},${y + 7} M${x + 7},${y - 7} L${x - 7},${y + 7}`,
          class: kind, "data-vertex": vertex }, this.layers.marks);
      }
    }
    if (last.vertex && last.vertex !== "pass") {
      const [x, y] = this.xy(last.vertex);
      el("circle", { cx: x, cy: y, r: 5, class: "last-move", "data-vertex": last.vertex }, this.layers.marks);
    }
  }

  // marks: {false_liberties: [vertex], gluttons: [vertex]}, as the engine's ruler views give them
  drawRuleMarks(marks) {
    if (!this.layers.rules) return;
    this.clear("rules");
    for (const vertex of marks.false_liberties || []) {
      const [x, y] = this.xy(vertex);
      el("circle", { cx: x, cy: y, r: 6, class: "false-liberty", "data-vertex": vertex }, this.layers.rules);
    }
    for (const vertex of marks.gluttons || []) {
      const [x, y] = this.xy(vertex);
      el("circle", { cx: x, cy: y, r: CELL / 2 - 4, class: "glutton", "data-vertex": vertex }, this.layers.rules);
    }
  }

  // A small picture of one kind of point, as the board draws it (for the legend).
  static symbol(kind) {
    const svg = el("svg", { viewBox: "-20 -20 40 40", width: 22, height: 22, class: "symbol" });
    el("rect", { x: -20, y: -20, width: 40, height: 40, fill: "#dcb46a" }, svg);
    if (kind === "water") el("rect", { x: -20, y: -20, width: 40, height: 40, class: "water" }, svg);
    if (kind === "mountain") el("polygon", { points: "-16,13 0,-16 16,13", class: "mountain" }, svg);
    if (kind === "fort") el("path", { d: "M-13,13 V-13 h7 v6 h5 v-6 h2 v6 h5 v-6 h7 V13 Z", class: "fort b" }, svg);
    if (kind === "plain") {
      el("line", { x1: -20, y1: 0, x2: 20, y2: 0, class: "legend-grid" }, svg);
      el("line", { x1: 0, y1: -20, x2: 0, y2: 20, class: "legend-grid" }, svg);
    }
    return svg;
  }

  // analysis: {moves: [{move, visits, winrate, lead, pv}], ownership: [...] top row first, black's}
  drawAnalysis(analysis) {
    this.clear("ownership");
    this.clear("analysis");
    this.clear("pv");
    if (!analysis) return;
    const size = this.size;
    if (analysis.ownership && analysis.ownership.length === size * size) {
      analysis.ownership.forEach((value, i) => {
        if (Math.abs(value) < 0.1) return;
        const vertex = vertexOf(Math.floor(i / size), i % size, size);
        const [x, y] = this.xy(vertex);
        const side = Math.min(Math.abs(value), 1) * 18;
        el("rect", { x: x - side, y: y - side, width: 2 * side, height: 2 * side, opacity: 0.55,
          class: `ownership ${value > 0 ? "b" : "w"}`, "data-vertex": vertex }, this.layers.ownership);
      });
    }
    const total = analysis.moves.reduce((sum, m) => sum + m.visits, 0) || 1;
    analysis.moves.filter((m) => m.move !== "PASS" && m.visits >= 0.02 * total).slice(0, 10).forEach((m, i) => {
      const [x, y] = this.xy(m.move);
      const g = el("g", { class: i === 0 ? "candidate best" : "candidate", "data-vertex": m.move }, this.layers.analysis);
      el("circle", { cx: x, cy: y, r: CELL / 2 - 2 }, g);
      const mine = analysis.color === "b" ? m.winrate : 1 - m.winrate;
      el("text", { x, y: y - 6 }, g).textContent = `${Math.round(100 * mine)}%`;
      el("text", { x, y: y + 8 }, g).textContent = m.visits >= 1000 ? `${(m.visits / 1000).toFixed(1)}k` : String(m.visits);
      g.addEventListener("mouseenter", () => this.drawPv(m.pv, analysis.color));
      g.addEventListener("mouseleave", () => this.clear("pv"));
    });
  }

  drawPv(pv, color) {
    this.clear("pv");
    let side = color;
    pv.forEach((vertex, i) => {
      if (vertex.toUpperCase() !== "PASS") {
        const [x, y] = this.xy(vertex);
        const g = el("g", { class: `pv ${side}`, "data-vertex": vertex }, this.layers.pv);
        el("circle", { cx: x, cy: y, r: CELL / 2 - 2 }, g);
        el("text", { x, y }, g).textContent = String(i + 1);
      }
      side = side === "b" ? "w" : "b";
    });
  }
}

// The win rate of Black over the game: winrates maps a move number to Black's win rate there.
export function drawGraph(container, winrates, moveCount) {
  container.textContent = "";
  const width = 300, height = 100;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" }, container);
  el("rect", { x: 0, y: 0, width, height, fill: "#fff" }, svg);
  el("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "graph-axis" }, svg);
  const last = Math.max(moveCount, 1, ...Object.keys(winrates).map(Number));
  const x = (n) => (n / last) * (width - 4) + 2;
  el("line", { x1: x(moveCount), y1: 0, x2: x(moveCount), y2: height, class: "graph-now" }, svg);
  const points = Object.entries(winrates).map(([n, w]) => [Number(n), w]).sort((a, b) => a[0] - b[0]);
  if (points.length) {
    el("polyline", { points: points.map(([n, w]) => `${x(n)},${(1 - w) * (height - 4) + 2}`).join(" "),
      class: "graph-line" }, svg);
    for (const [n, w] of points) {
      el("circle", { cx: x(n), cy: (1 - w) * (height - 4) + 2, r: 2, fill: "#1d4f91", class: "graph-point" }, svg);
    }
  }
}
