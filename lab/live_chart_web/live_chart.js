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
// Cell plots (mode "cells": a heatmap whose cells are choices) send a click on the plot area as
//   {op: "cell", x, y}  (data coordinates; the server rounds them to a cell)
// A figure with frames gets Play (Pause while it plays) / Step / Reset buttons that replay the frames here
// (Plotly.react of the figure with each frame merged in), without a server round trip per frame. A figure whose
// frames the server makes on demand (options.replay) gets the buttons too: the first Play or Step sends
// {op: "frames"}, and the figure that comes back with its frames is played. A chart that follows another's replay
// (options.follow: that chart's key) has no buttons of its own and shows the frame its leader shows. A button that
// cannot act now is marked so (aria-disabled), never disabled: a disabled button drops the keyboard's focus.
//
// Live moves (options.live, lab/live.py): the moment one of the section's sliders (options.live.controls)
// takes a new value, the element asks the page's route for the figures of the charts on or near the screen at that
// value and draws each chart it answers (found by key) in place. The rerun that move started is held back until
// then: the page's messages to the server wait until the figures are drawn (at most HOLD_MS), and the rerun brings
// the same figure JSON, which draws nothing, then the numbers and tables. Once a move of one step has its answer,
// the slider's next position the same way is asked ahead, so the next step of a key press or a drag is drawn
// without waiting for the server. A chart with its replay frames loaded is left to the rerun (the route sends no
// frames). An answer that is not the route's own (a server without the routes, or one that serves them elsewhere)
// turns live moves off for the page, once and silently.
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
// modebar's room with an x axis's labels and title (all at PRESENT_FONT_PX)
const PRESENT_BAR_PX = 80;
const LEGEND_ROW_PX = 27;
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

// While a live move is asked and drawn, the page's messages to the server (the move's rerun) wait, at most
// HOLD_MS: the rerun's messages would make the browser render every element of the page again while the figures
// are on their way (docs/PERFORMANCE.md), and the rerun's Python would share the one server process with the route.
// They go, in their order, once the figures are drawn.
const HOLD_MS = 600;
let holds = 0;
const held = [];                // [socket, data] of each message sent while a move is held
// a global patch of the browser's WebSocket, a debt: an element that owned its controls would need none;
// tests/browser/test_browser.py::test_a_live_move_sends_its_rerun_once_its_figures_are_drawn fails if it stops holding
const nativeSend = WebSocket.prototype.send;
WebSocket.prototype.send = function send(data) {
  if (holds > 0) {
    held.push([this, data]);
    return;
  }
  nativeSend.call(this, data);
};

// hold the page's messages until the function returned is called (or HOLD_MS have passed)
function holdMessages() {
  holds += 1;
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    holds -= 1;
    if (holds) return;
    for (const [socket, data] of held.splice(0)) {
      try {
        nativeSend.call(socket, data);
      } catch (error) {
        console.error("Kernel Lab:", error);
      }
    }
  };
  setTimeout(release, HOLD_MS);
  return release;
}

// The route's answers asked ahead: when a move of one step has its answer, the next position the same way is asked
// at once, while the figures are drawn (the server has nothing else to do: the rerun is held). URL → promise of
// {status, text} (status 0: the request failed, and the rerun draws that move); the last AHEAD_MAX kept.
const AHEAD_MAX = 4;
const ahead = new Map();

// the route's own content type (lab/live.py): any other answer is a server without the routes (Streamlit answers an
// unknown path with its HTML page and status 200), and the rerun then draws every move
const ROUTE_TYPE = "application/x-ndjson";

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

// after a move of one step from `before` to `position` (texts as the slider's range input's value attribute holds
// them), the position one step further the same way; null after a longer jump (a click on the track: where the
// student goes next is anyone's guess, and asking would only load the server) and at the end of the range
function nextPosition(input, position, before) {
  const step = Number(input.step) || 1;
  const now = Number(position);
  const was = Number(before);
  if (!Number.isFinite(now) || !Number.isFinite(was) || Math.abs(Math.abs(now - was) - step) > step * 1e-6) {
    return null;
  }
  const next = now + Math.sign(now - was) * step;
  if (next < Number(input.min) || next > Number(input.max)) return null;
  return String(Number(next.toFixed((String(input.step).split(".")[1] || "").length)));
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
    const style = document.createElement("style");
    style.textContent = CSS;
    document.head.appendChild(style);
  }
  return plotly;
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

  // options.live: watch the value of each of the section's sliders (Streamlit moves the thumb and sets its range
  // input's value attribute before it sends the change); found again after each message, as Streamlit may have
  // drawn a slider anew
  watchControls(plotlyUrl) {
    const live = this.options.live;
    const inputs = live && !liveOff ? Object.keys(live.controls)
      .map((key) => [key, document.querySelector(`.st-key-${window.CSS.escape(key)} input[type="range"]`)])
      .filter(([, input]) => input) : [];
    const same = this.liveInputs && inputs.length === this.liveInputs.length
      && inputs.every(([, input], k) => this.liveInputs[k][1] === input);
    if (same) return;
    if (this.liveWatch) this.liveWatch.disconnect();
    this.liveInputs = inputs;
    this.liveWatch = null;
    if (!inputs.length) return;
    this.liveAsked = this.liveAsked || 0;
    this.liveValues = Object.fromEntries(inputs.map(([key, input]) => [key, input.getAttribute("value")]));
    this.liveWatch = new MutationObserver((records) => {
      for (const [key, input] of inputs) {
        const value = input.getAttribute("value");
        const before = this.liveValues[key];
        if (!records.some((r) => r.target === input) || value === before) continue;
        this.liveValues[key] = value;
        this.liveMove(key, value, nextPosition(input, value, before), plotlyUrl)
          .catch((error) => console.error("Kernel Lab live move:", error));
      }
    });
    for (const [, input] of inputs) this.liveWatch.observe(input, {attributes: true, attributeFilter: ["value"]});
  }

  // the route's URL for the page's link with the slider `control` at `position` (the link's keys sorted: the same
  // settings make the same URL)
  liveUrl(control, position, plotlyUrl) {
    const values = this.options.live.controls[control];
    const params = new URLSearchParams(window.location.search);
    params.set(control, values ? values[Number(position)] : position);
    // only the charts on or near the screen: one farther away keeps its figure until the rerun brings it
    params.set("_charts", [...byKey].filter(([, chart]) => chart.root.isConnected && chart.near)
      .map(([key]) => key).join(","));
    params.sort();
    // the app's base URL: plotly.js is served at <base>app/static/<file>
    const url = new URL(this.options.live.route, new URL("../../", plotlyUrl));
    url.search = params.toString();
    return url.href;
  }

  async liveMove(control, position, next, plotlyUrl) {
    const ticket = ++this.liveAsked;
    const url = this.liveUrl(control, position, plotlyUrl);
    const release = holdMessages();
    try {
      const asked = ahead.get(url);
      ahead.delete(url);
      const {status, text} = await (asked || ask(url));
      if (status === -1) {
        liveOff = true;
        for (const chart of charts) if (chart.liveWatch) chart.liveWatch.disconnect();
        return;
      }
      if (status !== 200) return;   // 204: the page draws no such figures here; 400: a link it refuses
      if (ticket !== this.liveAsked) return;  // a later move is on its way
      if (next !== null) askAhead(this.liveUrl(control, next, plotlyUrl));
      const lines = text.split("\n");
      await Promise.all(JSON.parse(lines[0]).map((key, k) => {
        const chart = byKey.get(key);
        return chart && chart.root.isConnected ? chart.showLive(lines[k + 1]) : null;
      }));
    } finally {
      release();
    }
  }

  // a figure the live route answered, drawn as a message's figure is; not while it plays, nor once the frames it
  // makes on demand are loaded (the route sends none: the rerun brings the figure with them)
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
    const text = messageText(data);
    const cut = text.indexOf("\n");
    const optionsText = text.slice(0, cut);
    const options = JSON.parse(optionsText);
    // presenter mode switched: the same figure, a new look (a new name or text alternative only relabels it)
    const {name, label, ...look} = options;
    const lookText = JSON.stringify(look);
    const restyle = lookText !== this.lookText;
    this.lookText = lookText;
    this.options = options;
    if (options.file) byKey.set(options.file, this);
    this.label();
    const figureText = text.slice(cut + 1);
    this.Plotly = await loadPlotly(plotlyUrl);
    this.watchNear();
    this.watchControls(plotlyUrl);
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
    if (this.options.mode === "boundary" || this.options.mode === "cells") layout.clickmode = "none";
    return styled(layout, pageTheme(), this.options.present);
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

  // the frames of a replay the server makes on demand: ask once, then play or step when they come
  requestFrames(action) {
    if (!this.options.replay || !this.send || this.pending) return;
    this.pending = action;
    this.updateFrameButtons();
    this.send("event", {op: "frames"});
  }

  // the charts that follow this one's replay (options.follow): lesson 3's α bars follow its decision plot, so that
  // the α's on the screen are those of the boundary on the screen
  followers() {
    return [...charts].filter((chart) => chart !== this && chart.options.follow === this.options.file);
  }

  // frame k (-1: the figure as sent) here and on every follower
  async toFrame(k) {
    this.frame = k;
    await Promise.all([this.draw(), ...this.followers().map((chart) => chart.follow(k))]);
  }

  async follow(k) {
    if (!this.frameNames.length) return;
    this.frame = Math.min(k, this.frameNames.length - 1);
    this.updateFrameButtons();
    await this.redraw();
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
    // whatever the server answers (even the same figure, if it refused the change) is drawn anew
    this.figureText = null;
    this.root.setAttribute("data-kl-last-event", JSON.stringify(event));
    if (this.send) this.send("event", event);
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
    if (this.liveWatch) this.liveWatch.disconnect();
    this.observer.disconnect();
    if (this.nearby) this.nearby.disconnect();
    this.playing = false;
    if (this.Plotly) this.Plotly.purge(this.gd);
  }
}

export function mount(component, plotlyUrl) {
  const {data, parentElement, setTriggerValue} = component;
  let chart = parentElement.__klChart;
  if (!chart) chart = parentElement.__klChart = new Chart(parentElement);
  chart.update(data, plotlyUrl, setTriggerValue).catch((error) => chart.fail(error));
  // Streamlit calls the last cleanup on unmount, but also calls a superseded one when a new message came
  // before it was returned: only a chart whose element has left the page is taken down
  return () => setTimeout(() => {
    if (!parentElement.isConnected && parentElement.__klChart === chart) {
      chart.destroy();
      delete parentElement.__klChart;
    }
  }, 0);
}
