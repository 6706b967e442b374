// Kernel Lab's chart element (lab/live_chart.py): a Plotly figure drawn once and then updated in place.
//
// Each Streamlit message calls mount() again with new data on the same parent element; the chart kept on
// that element redraws with Plotly.react into the same div, so a camera, zoom, pan or hidden legend entry
// stays (layout.uirevision) until the student presses "Reset view". A message whose figure is unchanged
// draws nothing; a chart far below or above the visible part of the page keeps its new figure and draws it when
// the student scrolls near it (NEAR), so a slider move redraws only what is on or near the screen. Message: one
// line of JSON options, a newline, then the figure's JSON (plotly.io.to_json:
// numpy arrays travel as base64 typed arrays {dtype, bdata, shape}, which plotly.js decodes itself).
//
// Decision plots (mode "boundary") turn pointer actions into one trigger value "event":
//   click on the plot area           {op: "add", x, y, shift}   (data coordinates, from the axes' p2c)
//   drag one of the student's points {op: "move", i, x, y}      (i: its index in the student's list)
//   double-click it (or click it with "Delete points" on)  {op: "remove", i}
// With a route (options.live), a click, drag or delete asks the route first for the section's figures with the
// student's points as it leaves them (options.pts, as the link holds them), draws them, and then sends the event: the
// rerun it starts brings the same figures, which draw nothing (see emitLive). To place a press, plotly.js offers no
// public way: the axes' p2c/c2p and offsets (gd._fullLayout), the drawn points (gd.calcdata, gd._fullData) and the
// plot area's drag layer (.nsewdrag) are plotly.js's own, read here only; tests/browser/test_browser.py's
// test_a_click_adds_a_point_where_it_lands_and_shift_click_adds_the_other_class and
// test_an_own_point_is_dragged_to_where_it_is_dropped_and_removed_by_a_double_click fail on a plotly.js that moves
// them.
// Cell plots (mode "cells": a heatmap whose cells are choices) send a click on the plot area as
//   {op: "cell", x, y}  (data coordinates; the server rounds them to a cell)
// A figure with frames gets Play (Pause while it plays) / Step / Reset buttons that replay the frames here
// (Plotly.react of the figure with each frame merged in), without a server round trip per frame. A figure whose
// frames the server makes on demand (options.replay) gets the buttons too: the first Play or Step asks the live route
// for the figure with its frames where the chart has one (and plays it at once), and sends {op: "frames"}: the figure
// that comes back with its frames (from the rerun, where the route did not answer) is played. A chart that follows another's replay
// (options.follow: that chart's key) has no buttons of its own and shows the frame its leader shows. A button that
// cannot act now is marked so (aria-disabled), never disabled: a disabled button drops the keyboard's focus.
//
// Live sliders and toggles (mode "control", lab/live_control.py): a live section's slider or toggle is this element
// too, and owns its value between two runs. The moment it takes a new position (a key, a drag, a click on the track) it asks the
// section's route (lab/live.py) for the figures of the charts on or near the screen at that value and draws each
// chart it answers (found by key) in place; when the student lets go, the new position goes to the server as the
// trigger "value" once those figures are drawn (at most HOLD_MS), and the rerun brings the same figure JSON, which
// draws nothing, then the numbers and tables. Once a move of one step has its answer, the next position the same way
// is asked ahead, so the next step of a key press or a drag is drawn without waiting for the server. A chart with its
// replay frames loaded is left to the rerun (a move's answer has no frames). An answer that is not the route's own (a
// server without the routes, or one that serves them elsewhere) turns live moves off for the page, once and
// silently, and each value then goes to the server at once. Nothing of Streamlit's or Plotly's is patched or held.
//
// Look. The figure's template is light; here it follows the page's theme (read from the app's colours, redrawn
// when the student switches it): paper, text and legend take the theme's colours, while the plot area stays
// light so the data's colours (the classes, black boundary lines, the diverging field) mean the same in both.
// With the option `present` (presenter mode) every text is at least PRESENT_FONT_PX and in full contrast, and the
// figure is taller. On a narrow chart (a phone) the modebar is left out: it covered the legends; on a wider one, a
// legend or title that lies under it moves down. All of this is a change of layout made here, so presenter mode and
// the theme cost the server nothing per move.

const CSS = `
.kl-chart { width: 100%; }
.kl-chart .kl-bar { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; justify-content: flex-end;
  font: 0.85rem "Source Sans Pro", sans-serif; color: inherit; min-height: 1.9rem; }
.kl-chart .kl-bar button { font: inherit; color: inherit; background: transparent; border: 1px solid #9a9aa6;
  border-radius: 0.4rem; padding: 0.15rem 0.6rem; cursor: pointer; }
.kl-chart .kl-bar button:not([aria-disabled="true"]):hover { border-color: #7b3294; color: #7b3294; }
.kl-chart .kl-bar button[aria-disabled="true"] { opacity: 0.45; cursor: default; }
.kl-chart .kl-bar button:focus-visible { outline: 2px solid #7b3294; outline-offset: 1px; }
.kl-chart .kl-bar button[aria-pressed="true"] { background: rgba(123, 50, 148, 0.18); border-color: #7b3294; }
.kl-chart .kl-bar .kl-status { margin-right: auto; font-variant-numeric: tabular-nums; }
.kl-chart .kl-bar .kl-spacer { margin-right: auto; }
.kl-chart .kl-plot.kl-deleting .nsewdrag { cursor: not-allowed !important; }
.kl-control { font: 0.875rem "Source Sans Pro", sans-serif; color: inherit; padding-bottom: 0.25rem; }
.kl-control .kl-head { display: flex; align-items: baseline; gap: 0.4rem; }
.kl-control label { flex: 1 1 auto; overflow-wrap: anywhere; }
.kl-control .kl-help { flex: none; display: inline-flex; align-items: center; justify-content: center; width: 1rem;
  height: 1rem; border: 1px solid currentColor; border-radius: 50%; font-size: 0.7rem; opacity: 0.65; cursor: help; }
.kl-control output { flex: none; font-weight: 600; font-variant-numeric: tabular-nums; color: var(--kl-accent); }
.kl-control input[type="range"] { display: block; width: 100%; height: 1.25rem; margin: 0.2rem 0 0; cursor: pointer;
  background: transparent; -webkit-appearance: none; appearance: none; }
.kl-control input[type="range"]::-webkit-slider-runnable-track { height: 4px; border-radius: 2px;
  background: rgba(128, 128, 140, 0.35); }
.kl-control input[type="range"]::-webkit-slider-thumb { -webkit-appearance: none; appearance: none; width: 0.9rem;
  height: 0.9rem; margin-top: calc(2px - 0.45rem); border: none; border-radius: 50%; background: var(--kl-accent); }
.kl-control input[type="range"]::-moz-range-track { height: 4px; border-radius: 2px;
  background: rgba(128, 128, 140, 0.35); }
.kl-control input[type="range"]::-moz-range-thumb { width: 0.9rem; height: 0.9rem; border: none; border-radius: 50%;
  background: var(--kl-accent); }
.kl-control input[type="range"]:disabled { cursor: not-allowed; opacity: 0.5; }
.kl-control input[type="range"]:focus-visible { outline: 2px solid var(--kl-accent); outline-offset: 3px; }
.kl-control .kl-ends { display: flex; justify-content: space-between; font-size: 0.75rem; opacity: 0.7;
  font-variant-numeric: tabular-nums; }
.kl-control .kl-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
.kl-control.kl-toggle { padding: 0.35rem 0; }
.kl-control.kl-toggle .kl-head { align-items: center; gap: 0.5rem; }
.kl-control.kl-toggle label { flex: 0 1 auto; cursor: pointer; }
.kl-control input[type="checkbox"] { flex: none; width: 2rem; height: 1.1rem; margin: 0; border-radius: 0.55rem;
  cursor: pointer; -webkit-appearance: none; appearance: none;
  background: radial-gradient(circle at 0.55rem 50%, #fff 0.38rem, transparent 0.42rem) rgba(128, 128, 140, 0.45); }
.kl-control input[type="checkbox"]:checked {
  background: radial-gradient(circle at 1.45rem 50%, #fff 0.38rem, transparent 0.42rem) var(--kl-accent); }
.kl-control input[type="checkbox"]:disabled { cursor: not-allowed; opacity: 0.5; }
.kl-control input[type="checkbox"]:focus-visible { outline: 2px solid var(--kl-accent); outline-offset: 2px; }
`;

const CONFIG = {
  displaylogo: false,
  // plotly.js 4 shows "Share chart" by default, which uploads the figure to an outside service
  showSendToCloud: false,
  plotlyServerURL: "",
  modeBarButtonsToRemove: ["sendChartToCloud"],
  // width is set from the element's own width (see draw): no window-resize listener of Plotly's own
  responsive: false,
};
const PRESENT_FONT_PX = 18;
const PRESENT_HEIGHT = 1.25;    // presenter mode: a figure this much taller, within the window's height
const PRESENT_TOP_PX = 300;     // presenter mode: what is above a slide's first figure (title, sentence, examples)
// presenter mode, the heights of: a horizontal colour bar with its labels and title, a legend's entry, and the
// modebar's room with an x axis's labels and title (all at PRESENT_FONT_PX; in Chromium a bar takes 67 px and an
// entry 25.8-26.4)
const PRESENT_BAR_PX = 72;
const LEGEND_ROW_PX = 26.5;
const PRESENT_AXES_PX = 90;
// the names of a replay's Play button, which is Pause while the frames play
const PLAY = "Play the training animation";
const PAUSE = "Pause the training animation";
const NARROW_PX = 560;          // a chart narrower than this has no modebar
const CLICK_SLOP_PX = 4;        // a press that moves less than this is a click, not a pan or a drag
const DOUBLE_CLICK_MS = 400;
const HIT_PX = 9;               // a press this close to one of the student's points takes that point
const FRAME_MS = 120;
// a chart within a screen's height of the visible part of the page is redrawn with every new figure; one farther
// away keeps its new figure and draws it when it comes that close (a slider move on a long page redraws what the
// student sees, and what one scroll brings into view, and not the rest)
const NEAR = "100% 0px";

let plotly = null;
const charts = new Set();       // every mounted chart, redrawn when the page's theme changes
const byKey = new Map();        // chart key (options.file) → chart: the charts a live route answers
let liveOff = false;            // the server has no live routes
// an element's own message to the server (a slider's new value, a click's event) waits for the route's figures to be
// drawn, at most this long: then it goes, and the rerun draws the move
const HOLD_MS = 600;
// a slider's value sent to the server shows until the server's message holds it, or for this long
const SENT_MS = 3000;

// The route's answers asked ahead: when a move of one step has its answer, the next position the same way is asked
// at once, while the figures are drawn (the server has nothing else to do: the rerun waits). URL → promise of
// {status, text} (status 0: the request failed, and the rerun draws that move); the last AHEAD_MAX kept.
const AHEAD_MAX = 4;
const ahead = new Map();

// the route's own content type (lab/live.py): any other answer is a server without the routes (Streamlit answers an
// unknown path with its HTML page and status 200), and the rerun then draws every move
const ROUTE_TYPE = "application/x-ndjson";
// the query's key of the chart whose replay frames the route is to answer with its figure (lab/live.py)
const FRAMES_PARAM = "_frames";

// {status, text} of the route's answer; status -1: no route here
function ask(url) {
  return fetch(url).then(async (response) => {
    const ours = (response.headers.get("content-type") || "").startsWith(ROUTE_TYPE);
    if (response.status === 200 && !ours) return {status: -1, text: ""};
    if (response.status !== 200 && response.status !== 204 && response.status !== 400) return {status: -1, text: ""};
    return {status: response.status, text: response.status === 200 ? await response.text() : ""};
  });
}

function askAhead(url) {
  if (ahead.has(url)) return;
  ahead.set(url, ask(url).catch(() => ({status: 0, text: ""})));
  if (ahead.size > AHEAD_MAX) ahead.delete(ahead.keys().next().value);
}

// draw each chart of a route's answer {status, text} in place (found by key); whether it was an answer to draw
async function drawAnswer({status, text}) {
  if (status === -1) liveOff = true;
  if (status !== 200) return false;  // 204: the page draws no such figures here; 400: a link it refuses; 0: failed
  const lines = text.split("\n");
  await Promise.all(JSON.parse(lines[0]).map((key, k) => {
    const chart = byKey.get(key);
    return chart && chart.root.isConnected ? chart.showLive(lines[k + 1]) : null;
  }));
  return true;
}

// after a move of one step from position `before` to `position`, the position one step further the same way; null
// after a longer jump (a click on the track: where the student goes next is anyone's guess, and asking would only load
// the server) and at the end of the range (`count` positions)
function nextPosition(position, before, count) {
  if (Math.abs(position - before) !== 1) return null;
  const next = 2 * position - before;
  return next >= 0 && next < count ? next : null;
}

// the URL of the route `route` (relative to the app's base URL, which plotly.js is served under: <base>app/static/)
// for the page's link with `changes` (key → the link's text) made, asking only for the charts on or near the screen
// (one farther away keeps its figure until the rerun brings it); the link's keys sorted: the same settings make the
// same URL; the route's own query (the session's token) kept
function routeUrl(route, plotlyUrl, changes) {
  const url = new URL(route, new URL("../../", plotlyUrl));
  const params = new URLSearchParams(window.location.search);
  for (const [key, text] of [...Object.entries(changes), ...url.searchParams]) params.set(key, text);
  params.set("_charts", [...byKey].filter(([, chart]) => chart.root.isConnected && chart.near)
    .map(([key]) => key).join(","));
  params.sort();
  url.search = params.toString();
  return url.href;
}

// the page's theme from the app's own colours: {dark, bg, fg}
function pageTheme() {
  const app = document.querySelector(".stApp") || document.body;
  const style = getComputedStyle(app);
  const [r, g, b] = (style.backgroundColor.match(/[\d.]+/g) || [255, 255, 255]).map(Number);
  return {dark: 0.2126 * r + 0.7152 * g + 0.0722 * b < 128, bg: style.backgroundColor, fg: style.color};
}

let themeKey = null;
function watchTheme() {
  if (themeKey !== null) return;
  // Streamlit restyles the app (new style rules, new class names) when the student switches the theme
  let pending = false;
  const check = () => {
    pending = false;
    const t = pageTheme();
    const key = `${t.dark}|${t.bg}|${t.fg}`;
    if (key === themeKey) return;
    themeKey = key;
    for (const chart of charts) if (chart.figure) chart.redraw();
    for (const control of liveControls) control.accent();
  };
  const observer = new MutationObserver(() => { if (!pending) { pending = true; requestAnimationFrame(check); } });
  observer.observe(document.head, {childList: true});
  const app = document.querySelector(".stApp");
  if (app) observer.observe(app, {attributes: true, attributeFilter: ["class", "style"]});
  const t = pageTheme();
  themeKey = `${t.dark}|${t.bg}|${t.fg}`;
}

function isObject(v) { return v && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v); }

// b merged into a copy of a, recursively over plain objects
function merged(a, b) {
  const out = {...(a || {})};
  for (const [key, value] of Object.entries(b)) {
    out[key] = isObject(value) && isObject(out[key]) ? merged(out[key], value) : value;
  }
  return out;
}

// every font size the layout sets itself (titles, annotations, legends...), raised to at least px
function raiseFonts(value, px, inFont = false) {
  if (Array.isArray(value)) return value.map((v) => raiseFonts(v, px, inFont));
  if (!isObject(value)) return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (inFont && key === "size" && typeof v === "number") out[key] = Math.max(v, px);
    else out[key] = raiseFonts(v, px, /font$/i.test(key));
  }
  return out;
}

// what the theme and presenter mode change in a layout: its template's look, and the sizes it sets itself
function styled(layout, theme, present) {
  const look = {};
  if (theme.dark) {
    const axis = {color: "#111111", gridcolor: "#d0d0d8"};
    Object.assign(look, {paper_bgcolor: theme.bg, plot_bgcolor: "#ffffff", font: {color: present ? "#ffffff" : theme.fg},
      legend: {bgcolor: "#f4f4f6", font: {color: "#111111"}},
      scene: {bgcolor: "#ffffff", xaxis: axis, yaxis: axis, zaxis: axis}});
  }
  if (present) {
    look.font = merged(look.font, {size: PRESENT_FONT_PX, ...(theme.dark ? {} : {color: "#000000"})});
    look.hoverlabel = {font: {size: PRESENT_FONT_PX}};
    // a legend font of the template's own (the dark theme's colour) takes no size from the layout's font
    if (look.legend) look.legend = merged(look.legend, {font: {size: PRESENT_FONT_PX}});
    // a log axis labels its decades only: the small digits between them (2, 5...) are drawn at a smaller size
    const axis = {gridcolor: "#c4c4cc", linecolor: "#000000", zerolinecolor: "#8a8a96", minorloglabels: "none"};
    look.xaxis = axis;
    look.yaxis = axis;
    // a 3-D scene's tick labels at 18 px overlap at the default count
    const sceneAxis = {nticks: 5};
    look.scene = merged(look.scene, {xaxis: sceneAxis, yaxis: sceneAxis, zaxis: sceneAxis});
    layout = raiseFonts(layout, PRESENT_FONT_PX);
  }
  if (!Object.keys(look).length) return layout;
  return {...layout, template: merged(layout.template, {layout: look})};
}

function loadPlotly(url) {
  // one <script> per page, shared by every chart; the browser caches the file itself
  if (!plotly) {
    plotly = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { plotly = null; reject(new Error(`could not load plotly.js from ${url}`)); };
      document.head.appendChild(script);
    });
  }
  return plotly;
}

let cssAdded = false;
function addStyle() {
  if (cssAdded) return;
  cssAdded = true;
  const style = document.createElement("style");
  style.textContent = CSS;
  document.head.appendChild(style);
}

// label: the accessible name, which starts with the visible text (so speech control finds the button by it)
function button(text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.title = label;
  b.addEventListener("click", onClick);
  return b;
}

// an object without its null-valued keys, recursively: null means "not set" in a figure, but Plotly.react reads
// a null axis range as a value and fails with "container is not an object" on the next redraw
function withoutNulls(value) {
  if (!value || typeof value !== "object" || Array.isArray(value) || ArrayBuffer.isView(value)) return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = withoutNulls(v);
  return out;
}

function messageText(data) {
  if (typeof data === "string") return data;
  return new TextDecoder().decode(data);
}

class Chart {
  constructor(parent) {
    this.root = document.createElement("div");
    this.root.className = "kl-chart";
    this.bar = document.createElement("div");
    this.bar.className = "kl-bar";
    this.gd = document.createElement("div");
    this.gd.className = "kl-plot";
    this.root.append(this.bar, this.gd);
    parent.appendChild(this.root);
    this.figureText = null;
    this.options = {};
    this.resets = 0;
    this.draws = 0;
    this.width = 0;
    this.frameNames = [];
    this.frame = -1;
    this.playing = false;
    this.pending = null;  // "play" or "step", waiting for the frames asked for
    this.deleting = false;
    this.lastClick = {i: -1, t: 0};

    this.status = document.createElement("span");
    this.status.className = "kl-status";
    this.status.setAttribute("aria-live", "polite");
    this.play = button("▶ Play", PLAY, () => (this.playing ? this.pause() : this.playFrames()));
    this.step = button("Step", "Step: show the next frame of the animation", () => this.stepFrame());
    this.restart = button("Reset", "Reset: back to the first frame of the animation", () => this.showFrame(0));
    this.frameButtons = [this.status, this.play, this.step, this.restart];
    this.spacer = document.createElement("span");
    this.spacer.className = "kl-spacer";
    this.delete = button("Delete points", "Delete points: while on, a click on one of your points removes it",
                         () => this.setDeleting(!this.deleting));
    this.delete.setAttribute("aria-pressed", "false");
    this.reset = button("Reset view", "Reset view: zoom, pan, camera and hidden legend entries",
                        () => this.resetView());
    // drawn by plotly.js in the browser (Plotly.downloadImage): no server, no outside service
    this.png = button("PNG", "PNG: download this plot as an image, as it is shown now", () => this.download("png"));
    this.svg = button("SVG", "SVG: download this plot as a vector image, as it is shown now",
                      () => this.download("svg"));

    this.observer = new ResizeObserver(() => {
      // only a new width is redrawn: a same-size resize of a 3-D scene leaves it on a stale layout copy
      // and the next Plotly.react resets its camera
      if (this.figure && this.root.clientWidth && this.root.clientWidth !== this.width) this.draw();
    });
    this.observer.observe(this.root);
    this.near = true;     // until the first report of the IntersectionObserver (made in update, when on the page)
    this.stale = false;   // a new figure waits to be drawn until the chart comes near the visible part
    this.listen();
    watchTheme();
    charts.add(this);
  }

  // the text alternative the server made from the figure (figures.describe), and button names that say which
  // chart they act on: a page has several charts, each with its own Play and Reset view
  label() {
    const name = this.options.name || "chart";
    this.gd.setAttribute("role", "figure");
    this.gd.setAttribute("aria-label", this.options.label || name);
    this.status.setAttribute("aria-live", this.options.follow ? "off" : "polite");  // its leader's player says it
    for (const [b, text] of [[this.play, this.playing ? PAUSE : PLAY],
                             [this.step, "Step: show the next frame of the animation"],
                             [this.restart, "Reset: back to the first frame of the animation"],
                             [this.delete, "Delete points: while on, a click on one of your points removes it"],
                             [this.png, "PNG: download this plot as an image, as it is shown now"],
                             [this.svg, "SVG: download this plot as a vector image, as it is shown now"],
                             [this.reset, "Reset view: zoom, pan, camera and hidden legend entries"]]) {
      b.setAttribute("aria-label", `${text}, ${name}`);
      b.title = text;
    }
  }

  // The student's points as the link holds them (lab/points.py) once `event` is applied, from those the chart's last
  // message carried; null where the event names no point of theirs. A point is x1_x2_y, the coordinates rounded to
  // options.decimals places (no "-0"), a click adding options.classes[0] and a shift-click options.classes[1].
  pointsAfter(event) {
    const parts = (this.options.pts || "").split("~").filter(Boolean);
    const fixed = (v) => {
      const text = v.toFixed(this.options.decimals);
      return Number(text) === 0 ? text.replace("-", "") : text;   // no "-0.00"
    };
    const point = (x, y, label) => `${fixed(x)}_${fixed(y)}_${label}`;
    if (event.op === "add") {
      parts.push(point(event.x, event.y, this.options.classes[event.shift ? 1 : 0]));
    } else if (event.i >= parts.length) {
      return null;
    } else if (event.op === "move") {
      parts[event.i] = point(event.x, event.y, parts[event.i].split("_")[2]);
    } else {
      parts.splice(event.i, 1);
    }
    return parts.join("~");
  }

  // A click, drag or delete on a decision plot with a route: the section's figures with the student's points as the
  // event leaves them are asked and drawn first, then the event goes to the server (at the latest after HOLD_MS),
  // whose rerun brings the same figures. Another event before that rerun's message has come goes the rerun's way: the
  // points it would start from are not yet the server's.
  async emitLive(event) {
    const pts = this.acked ? this.pointsAfter(event) : null;
    if (pts === null) {
      this.figureText = null;   // whatever the server answers (the same figure, if it refused) is drawn anew
      this.sendEvent(event);
      return;
    }
    let sent = false;
    const send = () => {
      if (!sent) this.sendEvent(event);
      sent = true;
    };
    const timer = setTimeout(send, HOLD_MS);
    try {
      const url = routeUrl(this.options.live.route, this.plotlyUrl, {pts});
      if (!(await drawAnswer(await ask(url)))) this.figureText = null;
    } finally {
      clearTimeout(timer);
      send();
    }
  }

  sendEvent(event) {
    this.acked = false;
    if (this.send) this.send("event", event);
  }

  // a figure the live route answered, drawn as a message's figure is; not while it plays, nor once the frames it
  // makes on demand are loaded (the route sends them only when asked: requestFrames)
  showLive(figureText) {
    if (figureText === this.figureText || this.playing || (this.options.replay && this.frameNames.length)) return null;
    this.newFigure(figureText);
    return this.redraw().catch((error) => this.fail(error));
  }

  newFigure(figureText) {
    this.figureText = figureText;
    this.figure = JSON.parse(figureText);
    this.frameNames = (this.figure.frames || []).map((f, k) => (f.name === undefined ? String(k) : String(f.name)));
    this.frame = -1;
    this.playing = false;
    this.layoutBar();
  }

  async update(data, plotlyUrl, setTriggerValue) {
    this.send = setTriggerValue;
    this.plotlyUrl = plotlyUrl;
    this.acked = true;    // a message came after the last event sent
    const text = messageText(data);
    const cut = text.indexOf("\n");
    const optionsText = text.slice(0, cut);
    const options = JSON.parse(optionsText);
    // presenter mode switched: the same figure, a new look (a new name or text alternative only relabels it, and the
    // student's points and class are what a click starts from)
    const {name, label, pts, classes, ...look} = options;
    const lookText = JSON.stringify(look);
    const restyle = lookText !== this.lookText;
    this.lookText = lookText;
    this.options = options;
    if (options.file) byKey.set(options.file, this);
    this.label();
    const figureText = text.slice(cut + 1);
    addStyle();
    this.Plotly = await loadPlotly(plotlyUrl);
    this.watchNear();
    if (figureText !== this.figureText) {
      this.newFigure(figureText);
      await this.redraw();
    } else {
      this.layoutBar();
      if (restyle) await this.redraw();
    }
    if (this.pending && this.frameNames.length) {
      const action = this.pending;
      this.pending = null;
      if (action === "step") this.stepFrame(); else this.playFrames();
    }
  }

  // the scrolling box the chart sits in (Streamlit scrolls its main area itself), watched so that a chart far
  // from its visible part is not redrawn (NEAR); null where the window scrolls
  watchNear() {
    if (this.nearby || !this.root.isConnected) return;
    let box = this.root.parentElement;
    while (box && box !== document.body && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    this.nearby = new IntersectionObserver((entries) => {
      this.near = entries[entries.length - 1].isIntersecting;
      if (this.near && this.stale) this.draw();
    }, {root: box === document.body ? null : box, rootMargin: NEAR});
    this.nearby.observe(this.root);
  }

  // draw the figure now, or (a chart drawn before and now far from view) when it comes near
  async redraw() {
    if (this.draws && !this.near) {
      this.stale = true;
      return;
    }
    await this.draw();
  }

  layoutBar() {
    const wanted = [];
    if (this.options.follow && this.frameNames.length) {
      wanted.push(this.status);
    } else if (this.frameNames.length || this.options.replay) {
      wanted.push(...this.frameButtons);
    } else {
      wanted.push(this.spacer);
    }
    if (this.options.mode === "boundary") wanted.push(this.delete);
    wanted.push(this.png, this.svg, this.reset);
    if (wanted.length !== this.bar.children.length || wanted.some((el, k) => this.bar.children[k] !== el)) {
      this.bar.replaceChildren(...wanted);
    }
  }

  // the figure's data and layout as frame k shows them (k < 0: as sent): a frame's traces and layout keys
  // are merged into the figure's, as Plotly merges frames
  figureAt(k) {
    const fig = this.figure;
    const frame = k >= 0 && fig.frames ? fig.frames[k] : null;
    const layout = withoutNulls(fig.layout || {});
    if (!frame) return {data: fig.data, layout};
    const data = fig.data.slice();
    (frame.data || []).forEach((trace, j) => {
      const t = frame.traces ? frame.traces[j] : j;
      data[t] = {...data[t], ...trace};
    });
    for (const [key, value] of Object.entries(frame.layout || {})) {
      const old = layout[key];
      const nested = value && old && typeof value === "object" && typeof old === "object" && !Array.isArray(value);
      layout[key] = nested ? {...old, ...value} : value;
    }
    return {data, layout};
  }

  layout(layout) {
    // the figure's own uirevision (or one for all) plus the count of resets: a new value drops what the
    // student changed (zoom, pan, camera, legend) and draws the figure's own view again
    layout.uirevision = `${layout.uirevision ?? "chart"}#${this.resets}`;
    this.width = this.root.clientWidth || layout.width || 700;
    layout.width = this.width;
    layout.autosize = false;
    if (this.options.height) layout.height = this.options.height;
    // a tick label that would reach past the div is drawn anyway: the default ("hide past div") measures every
    // label of every axis on each redraw, a few ms per chart
    for (const key of Object.keys(layout)) {
      if (/^[xy]axis\d*$/.test(key) && isObject(layout[key]) && layout[key].ticklabeloverflow === undefined) {
        layout[key] = {...layout[key], ticklabeloverflow: "allow"};
      }
    }
    if (this.options.present) this.presentLayout(layout);
    if (this.modebarTop) layout.margin = {...layout.margin, t: Math.max(layout.margin?.t ?? 100, this.modebarTop)};
    this.keepRoom(layout);
    if (this.options.mode === "boundary" || this.options.mode === "cells") layout.clickmode = "none";
    return styled(layout, pageTheme(), this.options.present);
  }

  // the margins the chart's last draw took (its own, widened by Plotly for tick labels, axis titles, the legend and a
  // colour bar) are the least the next draw takes, until the chart's width, look, legend entries or axis titles change
  // or its view is reset: a figure whose tick labels need less room (C from 0.0316 to 0.0562 turns "0.005" into
  // "0.01") keeps the plot area where it was, instead of shifting it under the student's eyes, and is drawn once
  // (Plotly draws a figure a second time whenever its margins change)
  keepRoom(layout) {
    const titles = Object.entries(layout).filter(([name, axis]) => /^[xy]axis\d*$/.test(name) && isObject(axis))
      .map(([name, axis]) => `${name}:${JSON.stringify(axis.title ?? "")}`);
    const names = this.figure.data.map((trace) => trace.name ?? "");
    const key = JSON.stringify([this.width, this.lookText, this.resets, titles, names]);
    if (key !== this.roomKey) {
      this.roomKey = key;
      this.room = null;
    }
    if (!this.room) return;
    const margin = {...layout.margin};
    for (const [side, px] of Object.entries(this.room)) margin[side] = Math.max(margin[side] ?? 0, px);
    layout.margin = margin;
  }

  // what the draw just made took (gd._fullLayout._size is plotly.js's own: tests/browser/test_browser.py's
  // test_the_plot_area_stays_where_it_was_as_tick_labels_get_shorter fails on a plotly.js that moves it)
  tookRoom() {
    const size = this.gd._fullLayout && this.gd._fullLayout._size;
    if (size) this.room = {l: size.l, r: size.r, t: size.t, b: size.b};
  }

  // presenter mode: taller, within the window below a slide's head; a legend the figure puts above the plot goes
  // to its right when the chart is wide, so that a plot with equal axes gets the height it needs
  presentLayout(layout) {
    if (layout.height) {
      const fits = window.innerHeight - PRESENT_TOP_PX;
      layout.height = Math.round(Math.max(Math.min(layout.height, fits), Math.min(layout.height * PRESENT_HEIGHT, fits)));
    }
    const legend = layout.legend || {};
    this.besidePlot = legend.orientation === "h" && legend.y >= 1 && this.width > 1.3 * (layout.height || 450);
    if (this.besidePlot) {
      // entries without the gap between legend groups (every line of a decision plot is a group of its own)
      layout.legend = {...legend, orientation: "v", x: 1.02, xanchor: "left", y: 1, yanchor: "top", tracegroupgap: 0};
      // a colour bar under the plot goes beside it too, under the legend, where the legend leaves it room (see
      // presentData); the space it needed under the plot is then given to the plot
      const plot = (layout.height || 450) - (layout.margin?.t ?? 100) - PRESENT_AXES_PX;
      this.barBeside = this.legendEntries() * LEGEND_ROW_PX + PRESENT_BAR_PX <= plot;
      if (this.barBeside && layout.margin) layout.margin = {...layout.margin, b: Math.min(layout.margin.b ?? 10, 10)};
    }
  }

  // the entries of the figure's legend: its traces with a name, one per legend group
  legendEntries() {
    const shown = this.figure.data.filter((t) => t.name && t.type !== "heatmap" && t.showlegend !== false);
    return new Set(shown.map((t) => t.legendgroup || t.name)).size;
  }

  // presenter mode, legend beside the plot: a colour bar under the plot goes there too, under the legend (still
  // horizontal: it takes less of the height)
  presentData(data) {
    if (!this.options.present || !this.besidePlot || !this.barBeside) return data;
    return data.map((trace) => {
      const bar = trace.colorbar;
      if (!bar || bar.orientation !== "h") return trace;
      return {...trace, colorbar: {...bar, x: 1.02, xanchor: "left", y: 0, yanchor: "bottom", lenmode: "pixels",
                                   len: 200, thickness: 14}};
    });
  }

  async draw() {
    const fig = this.figure;
    const config = {...CONFIG, ...(fig.config || {})};
    if (this.options.mode === "boundary") config.doubleClick = false;  // a double-click removes a point
    if ((this.root.clientWidth || 700) < NARROW_PX) config.displayModeBar = false;  // it covered the legend
    const {data, layout} = this.figureAt(this.frame);
    this.stale = false;
    this.drawing = true;
    try {
      const drawn = this.layout(layout);
      await this.Plotly.react(this.gd, {data: this.presentData(data), layout: drawn, config});
      for (let k = 0; k < 3 && this.roomForModebar(); k++) {
        const room = this.layout(this.figureAt(this.frame).layout);
        await this.Plotly.react(this.gd, {data: this.presentData(data), layout: room, config});
      }
    } catch (error) {
      this.fail(error);
      return;
    } finally {
      this.drawing = false;
    }
    this.tookRoom();
    this.draws += 1;
    this.gd.setAttribute("data-kl-draws", String(this.draws));
    this.root.removeAttribute("data-kl-error");
    this.updateFrameButtons();
  }

  // the modebar (shown while the pointer is on the chart) sits over the figure's top right corner: where a legend,
  // colour bar, title or note reaches under it, the plot area and what is anchored to it move down by the overlap,
  // on this and every later draw of the chart (modebarTop: the top margin that leaves room); whether it moved
  roomForModebar() {
    const bar = this.gd.querySelector(".modebar");
    const box = bar && bar.getBoundingClientRect();
    if (!box || !box.width) return false;
    let under = 0;
    for (const el of this.gd.querySelectorAll(".infolayer :is(.legend, .g-gtitle, .colorbar, .annotation)")) {
      const r = el.getBoundingClientRect();
      if (r.width && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top) {
        under = Math.max(under, box.bottom - r.top);
      }
    }
    const size = this.gd._fullLayout && this.gd._fullLayout._size;
    if (!under || !size) return false;
    this.modebarTop = Math.ceil(size.t + under + 4);
    return true;
  }

  async download(format) {
    if (!this.figure) return;
    if (this.stale) await this.draw();
    this.Plotly.downloadImage(this.gd, {format, filename: `kernel-lab-${this.options.file || "plot"}`});
  }

  resetView() {
    if (!this.figureText) return;
    this.resets += 1;
    // Plotly writes what the student changes (ranges, camera, hidden traces) into the figure it drew:
    // start again from the figure as sent
    this.figure = JSON.parse(this.figureText);
    if (this.options.follow) {   // a follower keeps its leader's frame
      this.draw();
      return;
    }
    this.playing = false;
    this.toFrame(-1);
  }

  setDeleting(on) {
    this.deleting = on;
    this.delete.setAttribute("aria-pressed", String(on));
    this.gd.classList.toggle("kl-deleting", on);
  }

  // ------------------------------------------------------------------ animation

  updateFrameButtons() {
    const n = this.frameNames.length;
    if (!n && !this.options.replay) return;
    const at = this.frame < 0 ? "final state" : `frame ${this.frame + 1} of ${n}: ${this.frameNames[this.frame]}`;
    this.status.textContent = this.pending ? "loading the replay…" : this.playing ? `playing ${at}` : at;
    this.root.setAttribute("data-kl-frame", String(this.frame));
    this.root.setAttribute("data-kl-playing", String(this.playing));
    this.play.textContent = this.playing ? "❚❚ Pause" : "▶ Play";
    this.label();
    this.play.setAttribute("aria-disabled", String(Boolean(this.pending)));
    this.step.setAttribute("aria-disabled", String(Boolean(this.pending) || (n > 0 && this.frame >= n - 1)));
  }

  // the frames of a replay the server makes on demand: ask once, then play or step when they come. A chart with a
  // route (a decision plot of a live section) asks the route for its figure with the frames and plays it at once;
  // the event then marks the chart in the session, and the rerun brings the same figure, which draws nothing.
  // Without the route's figure (no routes, a 204), the rerun brings it.
  async requestFrames(action) {
    if (!this.options.replay || !this.send || this.pending) return;
    this.pending = action;
    this.updateFrameButtons();
    const live = this.options.live;
    if (live && !liveOff) {
      try {
        const url = routeUrl(live.route, this.plotlyUrl, {[FRAMES_PARAM]: this.options.file});
        await drawAnswer(await ask(url));
      } catch (error) {
        console.error("Kernel Lab replay:", error);
      }
    }
    this.send("event", {op: "frames"});
    if (this.pending && this.frameNames.length) {
      this.pending = null;
      if (action === "step") this.stepFrame(); else this.playFrames();
    }
  }

  // the charts that follow this one's replay (options.follow): lesson 3's α bars follow its decision plot, so that
  // the α's on the screen are those of the boundary on the screen
  followers() {
    return [...charts].filter((chart) => chart !== this && chart.options.follow === this.options.file);
  }

  // frame k (-1: the figure as sent) here and on every follower, their status lines changed at once
  async toFrame(k) {
    const moved = [this, ...this.followers().filter((chart) => chart.frameNames.length)];
    for (const chart of moved) {
      chart.frame = Math.min(k, chart.frameNames.length - 1);
      chart.updateFrameButtons();
    }
    await Promise.all(moved.map((chart) => (chart === this ? chart.draw() : chart.redraw())));
  }

  async showFrame(k) {
    if (!this.frameNames.length) return;
    this.playing = false;
    await this.toFrame(k);
  }

  // Step pauses a replay that plays
  async stepFrame() {
    if (this.pending) return;
    if (!this.frameNames.length) return this.requestFrames("step");
    if (this.frame < this.frameNames.length - 1) await this.showFrame(this.frame + 1);
  }

  pause() {
    this.playing = false;
    this.updateFrameButtons();
  }

  async playFrames() {
    const n = this.frameNames.length;
    if (!n) return this.requestFrames("play");
    if (this.playing) return;
    const figureText = this.figureText;
    let k = this.frame >= n - 1 ? 0 : this.frame + 1;
    this.playing = true;
    for (; k < n; k++) {
      if (!this.playing || figureText !== this.figureText) break;  // paused, stepped, or a new figure came
      await this.toFrame(k);
      await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
    }
    this.playing = false;
    this.updateFrameButtons();
  }

  // ------------------------------------------------------------------ pointer actions on decision plots

  axes() {
    const full = this.gd._fullLayout;
    return full && full.xaxis && full.yaxis ? [full.xaxis, full.yaxis] : null;
  }

  // the pointer in data coordinates, or null outside the plot area
  dataPoint(event) {
    const axes = this.axes();
    if (!axes) return null;
    const [xa, ya] = axes;
    const box = this.gd.getBoundingClientRect();
    const px = event.clientX - box.left - xa._offset;
    const py = event.clientY - box.top - ya._offset;
    if (px < 0 || py < 0 || px > xa._length || py > ya._length) return null;
    return {x: xa.p2c(px), y: ya.p2c(py), px, py};
  }

  // [trace index, point number, index in the student's list] of the student's point under the pointer
  ownPointAt(p) {
    const [xa, ya] = this.axes();
    const traces = this.gd._fullData || [];
    const t = traces.findIndex((tr) => tr.name === this.options.own && tr.visible === true);
    if (t < 0 || !this.gd.calcdata || !this.gd.calcdata[t]) return null;
    let best = null;
    let bestDistance = HIT_PX;
    this.gd.calcdata[t].forEach((point, j) => {
      const d = Math.hypot(xa.c2p(point.x) - p.px, ya.c2p(point.y) - p.py);
      if (d <= bestDistance) { best = j; bestDistance = d; }
    });
    if (best === null) return null;
    const custom = traces[t].customdata;
    return [t, best, custom ? Number(custom[best]) : best];
  }

  listen() {
    const gd = this.gd;
    // Plotly pans on mousedown/touchstart of its drag layer: a press on one of the student's points is ours
    const claim = (event) => { if (this.pressed && this.pressed.own) event.stopPropagation(); };
    gd.addEventListener("mousedown", claim, true);
    gd.addEventListener("touchstart", claim, true);
    gd.addEventListener("pointerdown", (event) => this.pointerDown(event), true);
  }

  pointerDown(event) {
    this.pressed = null;
    const mode = this.options.mode;
    if ((mode !== "boundary" && mode !== "cells") || event.button !== 0 || this.drawing) return;
    if (!event.target.classList || !event.target.classList.contains("nsewdrag")) return;
    const p = this.dataPoint(event);
    if (!p) return;
    const own = mode === "boundary" ? this.ownPointAt(p) : null;
    const pressed = this.pressed = {start: p, x: event.clientX, y: event.clientY, shift: event.shiftKey, own,
                                    moved: false};
    if (own) event.preventDefault();
    const move = (e) => {
      if (Math.hypot(e.clientX - pressed.x, e.clientY - pressed.y) > CLICK_SLOP_PX) pressed.moved = true;
      if (pressed.own && pressed.moved && !this.deleting) this.dragTo(pressed, e);
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      this.pressed = null;
      if (e.type === "pointerup") this.release(pressed, e);
    };
    window.addEventListener("pointermove", move, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
  }

  dragTo(pressed, event) {
    const p = this.dataPoint(event);
    if (!p) return;
    pressed.to = p;
    if (pressed.frame) return;
    pressed.frame = requestAnimationFrame(() => {
      pressed.frame = null;
      const [t, j] = pressed.own;
      const xs = Array.from(this.gd._fullData[t].x);
      const ys = Array.from(this.gd._fullData[t].y);
      xs[j] = pressed.to.x;
      ys[j] = pressed.to.y;
      this.Plotly.restyle(this.gd, {x: [xs], y: [ys]}, [t]);
    });
  }

  release(pressed, event) {
    if (this.options.mode === "cells") {
      if (!pressed.moved) this.emit({op: "cell", x: pressed.start.x, y: pressed.start.y});
      return;
    }
    if (pressed.own) {
      const i = pressed.own[2];
      if (pressed.moved && !this.deleting) {
        const p = this.dataPoint(event) || pressed.to;
        if (p) this.emit({op: "move", i, x: p.x, y: p.y});
        return;
      }
      if (pressed.moved) return;
      const now = performance.now();
      const double = this.lastClick.i === i && now - this.lastClick.t < DOUBLE_CLICK_MS;
      this.lastClick = {i, t: now};
      if (this.deleting || double) this.emit({op: "remove", i});
      return;
    }
    if (!pressed.moved && !this.deleting) {
      this.emit({op: "add", x: pressed.start.x, y: pressed.start.y, shift: pressed.shift});
    }
  }

  emit(event) {
    this.root.setAttribute("data-kl-last-event", JSON.stringify(event));
    if (this.options.mode === "boundary" && this.options.live && !liveOff) {
      this.emitLive(event).catch((error) => console.error("Kernel Lab live event:", error));
      return;
    }
    this.figureText = null;   // whatever the server answers (the same figure, if it refused the change) is drawn anew
    this.sendEvent(event);
  }

  // a chart that cannot be drawn says so on the page (and in data-kl-error for the browser tests)
  fail(error) {
    console.error("Kernel Lab chart:", error);
    this.root.setAttribute("data-kl-error", String(error && error.message || error));
    this.status.textContent = `This chart could not be drawn: ${error && error.message || error}`;
    if (!this.bar.contains(this.status)) this.bar.prepend(this.status);
  }

  destroy() {
    charts.delete(this);
    if (byKey.get(this.options.file) === this) byKey.delete(this.options.file);
    this.observer.disconnect();
    if (this.nearby) this.nearby.disconnect();
    this.playing = false;
    if (this.Plotly) this.Plotly.purge(this.gd);
  }
}

// ------------------------------------------------------------------ live sliders

let controls = 0;                // for each slider's element ids
const liveControls = new Set();  // every mounted slider, restyled when the page's theme changes

class Control {
  // kind: "slider" (a range input) or "toggle" (a switch: a checkbox, off and on its positions 0 and 1)
  constructor(parent, kind) {
    const id = `kl-control-${++controls}`;
    this.toggle = kind === "toggle";
    this.root = document.createElement("div");
    this.root.className = this.toggle ? "kl-control kl-toggle" : "kl-control";
    const head = document.createElement("div");
    head.className = "kl-head";
    this.label = document.createElement("label");
    this.label.htmlFor = id;
    this.help = document.createElement("span");
    this.help.className = "kl-help";
    this.help.textContent = "?";
    this.helpText = document.createElement("span");
    this.helpText.className = "kl-hidden";
    this.helpText.id = `${id}-help`;
    this.output = document.createElement("output");
    this.output.htmlFor = id;
    this.input = document.createElement("input");
    this.input.id = id;
    const ends = document.createElement("div");
    ends.className = "kl-ends";
    this.low = document.createElement("span");
    this.high = document.createElement("span");
    ends.append(this.low, this.high);
    if (this.toggle) {
      this.input.type = "checkbox";
      this.input.setAttribute("role", "switch");
      head.append(this.input, this.label, this.help, this.helpText);
      this.root.append(head);
    } else {
      this.input.type = "range";
      this.input.min = "0";
      this.input.step = "1";
      head.append(this.label, this.help, this.helpText, this.output);
      this.root.append(head, this.input, ends);
    }
    parent.appendChild(this.root);
    this.options = null;
    this.position = null;   // the position shown
    this.server = null;     // the position the server's last message held
    this.sent = null;       // a position sent, until the server's message holds it (or SENT_MS have passed)
    this.asked = 0;         // moves asked of the route, to tell the latest
    this.drawn = null;      // promise: the latest move's figures drawn
    this.pressed = false;   // a pointer holds the thumb: the server's messages do not move it meanwhile
    liveControls.add(this);
    watchTheme();
    if (this.toggle) {
      this.input.addEventListener("change", () => {
        this.moved();
        this.commit();
      });
    } else {
      this.input.addEventListener("input", () => this.moved());
      this.input.addEventListener("change", () => this.commit());
    }
    this.input.addEventListener("pointerdown", () => { this.pressed = true; });
    const up = () => { this.pressed = false; };
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    this.removeListeners = () => {
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
    };
  }

  count() {
    return this.options.texts ? this.options.texts.length : this.options.count;
  }

  // the value at position k as it is shown, and as the link holds it
  text(k) {
    if (this.options.texts) return this.options.texts[k];
    return String(Number((this.options.lo + k * this.options.step).toFixed(this.options.digits)));
  }

  link(k) {
    return this.options.link ? this.options.link[k] : this.text(k);
  }

  update(data, plotlyUrl, setTriggerValue) {
    addStyle();
    this.send = setTriggerValue;
    this.plotlyUrl = plotlyUrl;
    const text = messageText(data);
    const options = this.options = JSON.parse(text.slice(0, text.indexOf("\n")));
    this.root.dataset.key = options.key;   // the control's schema key, as the page's link names it
    this.accent();
    this.label.textContent = options.label;
    this.help.hidden = !options.help;
    this.help.title = options.help || "";
    this.helpText.textContent = options.help || "";
    if (options.help) this.input.setAttribute("aria-describedby", this.helpText.id);
    else this.input.removeAttribute("aria-describedby");
    this.input.max = String(this.count() - 1);
    this.input.disabled = Boolean(options.disabled);
    this.low.textContent = this.text(0);
    this.high.textContent = this.text(this.count() - 1);
    this.server = options.value;
    this.serverText = options.text;
    // the server's value, unless the student holds the thumb or a value they sent is not yet the server's
    if (this.pressed || (this.sent !== null && this.sent !== options.value)) return;
    this.sent = null;
    this.show(options.value, options.text);
  }

  // the theme's primary colour, as Streamlit's own controls have it
  accent() {
    this.root.style.setProperty("--kl-accent", this.options.accent[pageTheme().dark ? "dark" : "light"]);
  }

  // the position the input shows
  current() {
    return this.toggle ? Number(this.input.checked) : Number(this.input.value);
  }

  show(k, text = this.text(k)) {
    this.position = k;
    if (this.toggle) this.input.checked = k === 1;
    else this.input.value = String(k);
    this.output.textContent = text;
    if (!this.toggle) this.input.setAttribute("aria-valuetext", text);
  }

  // a new position: shown, and its figures asked of the route and drawn
  moved() {
    const before = this.position;
    const k = this.current();
    this.show(k);
    if (liveOff || !this.options.route) return;
    this.drawn = this.ask(k, before).catch((error) => console.error("Kernel Lab live move:", error));
  }

  async ask(k, before) {
    const ticket = ++this.asked;
    const url = this.url(k);
    const asked = ahead.get(url);
    ahead.delete(url);
    const answer = await (asked || ask(url));
    if (ticket !== this.asked) return;   // a later move is on its way
    const next = before === null ? null : nextPosition(k, before, this.count());
    if (answer.status === 200 && next !== null) askAhead(this.url(next));
    await drawAnswer(answer);
  }

  url(k) {
    return routeUrl(this.options.route, this.plotlyUrl, {[this.options.key]: this.link(k)});
  }

  // the student let go (or pressed a key): the position goes to the server once its figures are drawn, unless a later
  // move has come meanwhile (that one goes instead)
  async commit() {
    const k = this.current();
    if (this.drawn && !liveOff) {
      await Promise.race([this.drawn, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]);
    }
    if (k !== this.current() || k === this.server || !this.send) return;
    this.sent = k;
    this.send("value", k);
    // a value the server does not take (or a message that never comes): after SENT_MS the server's shows again
    setTimeout(() => {
      if (this.sent !== k) return;
      this.sent = null;
      if (!this.pressed && this.server !== null) this.show(this.server, this.serverText);
    }, SENT_MS);
  }

  destroy() {
    liveControls.delete(this);
    this.removeListeners();
  }
}

export function mount(component, plotlyUrl) {
  const {data, parentElement, setTriggerValue} = component;
  let element = parentElement.__klChart;
  if (!element) {
    const text = messageText(data);
    const options = JSON.parse(text.slice(0, text.indexOf("\n")));
    element = parentElement.__klChart = options.mode === "control" ? new Control(parentElement, options.kind)
      : new Chart(parentElement);
  }
  const updated = element.update(data, plotlyUrl, setTriggerValue);
  if (updated) updated.catch((error) => element.fail(error));
  // Streamlit calls the last cleanup on unmount, but also calls a superseded one when a new message came
  // before it was returned: only a chart whose element has left the page is taken down
  return () => setTimeout(() => {
    if (!parentElement.isConnected && parentElement.__klChart === element) {
      element.destroy();
      delete parentElement.__klChart;
    }
  }, 0);
}
