// The pan/zoom/click frame around a server-drawn Graphviz SVG (ui/sections/tree_frame.py).
// It opens at a readable scale (scale.js, ui/views/picture_scale.py): the frame's width fitted
// with the node text within data.bounds, the frame as tall as the picture up to a limit.
// Wheel zooms around the pointer, dragging pans, "fit" shows the whole picture. With
// data.fixed (pictures in several frames at one scale) the picture keeps its opening size and
// scrolls inside the frame (wheel, scroll bars or dragging), opening on the root node; there
// is no zoom and no "fit". A click on a
// node (<g id="dtnodeN">), a breadcrumb (dtcrumbN) or a summary box (dtmoreN) sends
// "node:N" / "crumb:N" / "more:N" to Python (a column of the Splits page's curve, dtpickK: "pick:K"). The SVG is parsed as XML and only what Graphviz
// draws a tree with is kept (an allow-list of elements and attributes, see cleanSvg) before it is
// shown; nothing is loaded from the network.
import { nodeFont, openingScale } from "./scale.js";
const KINDS = [["dtnode", "node"], ["dtcrumb", "crumb"], ["dtmore", "more"], ["dtpick", "pick"]];
const MIN_HEIGHT = 120; // the fewest pixels a frame is tall
const PAD = 16; // a frame's room beyond its picture
const FOCUS_MARGIN = 24; // CSS pixels between a focus node (data.focus) and the frame's edge as it opens

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
// the elements Graphviz draws a tree with; anything else (script, foreignObject, animate, set,
// use, image, style, title...) goes with everything inside it. <title> too: Graphviz's internal
// names ("node12") would show as tooltips.
const ELEMENTS = new Set([
  "svg", "g", "a", "polygon", "polyline", "path", "ellipse", "circle", "rect", "line", "text",
  "tspan", "defs", "linearGradient", "radialGradient", "stop",
]);
// presentation and geometry only: no event handlers, no style (url(), expressions), no links
const ATTRIBUTES = new Set([
  "id", "class", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray",
  "stroke-opacity", "stroke-linecap", "stroke-linejoin", "points", "d", "x", "y", "dx", "dy", "x1",
  "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "transform", "font-family", "font-size",
  "font-weight", "font-style", "text-anchor", "text-decoration", "viewBox", "width", "height",
  "preserveAspectRatio", "offset", "stop-color", "stop-opacity", "gradientUnits", "fx", "fy",
]);
// a paint server in the same picture (Graphviz's gradients): fill="url(#l_0)"
const LOCAL_URL = /^url\(#[\w.-]+\)$/;

function keepAttribute(el, attr) {
  const value = attr.value.trim();
  if (/url\s*\(/i.test(value) && !LOCAL_URL.test(value)) return false;
  if (attr.namespaceURI === XLINK_NS) {
    if (attr.localName === "title") return el.localName === "a"; // the tooltip the app asks for
    return attr.localName === "href" && el.localName === "a" && value.startsWith("#");
  }
  if (attr.namespaceURI === null && attr.name === "href") return el.localName === "a" && value.startsWith("#");
  return attr.namespaceURI === null && ATTRIBUTES.has(attr.name);
}

function cleanNode(el) {
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE || child.namespaceURI !== SVG_NS || !ELEMENTS.has(child.localName)) {
      child.remove();
      continue;
    }
    cleanNode(child);
  }
  for (const attr of Array.from(el.attributes)) {
    // namespace declarations are kept: they name no resource and the parsed DOM needs none
    if (attr.namespaceURI === "http://www.w3.org/2000/xmlns/") continue;
    if (!keepAttribute(el, attr)) el.removeAttributeNode(attr);
  }
}

// The picture as an SVG element holding only what Graphviz draws a tree with (ELEMENTS,
// ATTRIBUTES, the tooltip's xlink:title, links to "#..." only), or null for anything but SVG.
// Labels are escaped on their way into the DOT; this is defence in depth against an SVG that
// would run script, animate an attribute into javascript:, embed HTML or load from the network.
function cleanSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.namespaceURI !== SVG_NS || svg.localName !== "svg") return null;
  cleanNode(svg);
  return svg;
}

function target(el) {
  for (let g = el; g && g.getAttribute; g = g.parentNode) {
    const id = g.getAttribute("id") || "";
    for (const [prefix, kind] of KINDS) {
      if (id.startsWith(prefix) && /^\d+$/.test(id.slice(prefix.length))) return `${kind}:${id.slice(prefix.length)}`;
    }
  }
  return null;
}

// The pictures this page holds, by digest (ui/sections/tree_frame.py sends an SVG once per
// session, then only its digest): the cleaned SVG element, cloned for each frame that shows it.
// On the window, so that it outlives the frames (a page switch unmounts them); as many as the
// server counts (HELD_PICTURES), the least recently shown dropped first.
const HELD_PICTURES = 24;
// A frame missing its picture asks again after 2 s, 4 s, ... at most this many times in all.
const ASK_AGAIN_MS = 2000;
const ASK_LIMIT = 5;
const held = (window.__dtTreePictures = window.__dtTreePictures || new Map());

function heldPicture(digest, text) {
  if (text) {
    const svg = cleanSvg(text);
    if (!svg) return null;
    held.delete(digest);
    held.set(digest, svg);
    while (held.size > HELD_PICTURES) held.delete(held.keys().next().value);
    return svg;
  }
  const svg = held.get(digest);
  if (svg) {
    held.delete(digest);
    held.set(digest, svg);
  }
  return svg || null;
}

// The opening view of a new picture (or of one the user has not moved yet, when its frame
// changes width): the scale (ui/views/picture_scale.py) fitting the whole picture in the frame
// with the node text within data.bounds, the frame as tall as the picture up to a limit.
// data.basis, a size in picture units, is what is fitted instead of the picture's own when
// several frames share one scale (Pruning's pair: the larger of both).
function openView(frame, stage, data) {
  const el = stage.firstChild;
  const fixed = frame._dtFixed;
  const view = frame._dtView;
  [view.x, view.y, view.w, view.h] = view.full;
  const box = { x: view.x, y: view.y, width: view.w, height: view.h }; // the whole picture
  const bounds = data.bounds || { low: 10, high: 14, max_height: data.height || 560 };
  const basis = data.basis || [box.width, box.height];
  const width = stage.clientWidth;
  const extra = frame.offsetHeight - stage.clientHeight; // the hint's row and the borders
  const room = [width, bounds.max_height - PAD - extra];
  const s = openingScale(room, basis, nodeFont(el), bounds.low, bounds.high);
  const tall = data.same_height ? basis[1] : box.height;
  const height = Math.round(Math.min(bounds.max_height, Math.max(MIN_HEIGHT, tall * s + PAD + extra)));
  frame._dtHeight = height;
  frame.style.height = `${height}px`;
  const shown = [stage.clientWidth, stage.clientHeight]; // after the new height
  // a node's box in the picture's own units (its viewBox): getBBox is in the node's local
  // units, which Graphviz's graph group moves (transform="... translate(4 1698)")
  const nodeBox = (id) => {
    const r = stage.querySelector(`g[id="dtnode${id}"]`);
    if (!r) return null;
    const b = r.getBBox();
    let m = new DOMMatrix();
    for (let n = r; n && n !== el; n = n.parentNode) {
      const t = n.transform && n.transform.baseVal.consolidate();
      if (t) m = DOMMatrix.fromMatrix(t.matrix).multiply(m);
    }
    const a = new DOMPoint(b.x, b.y).matrixTransform(m);
    const c = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(m);
    return { x0: Math.min(a.x, c.x), y0: Math.min(a.y, c.y), x1: Math.max(a.x, c.x), y1: Math.max(a.y, c.y) };
  };
  const union = (boxes) => ({
    x0: Math.min(...boxes.map((b) => b.x0)), y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)), y1: Math.max(...boxes.map((b) => b.y1)),
  });
  // where the window opens: around the root; with data.focus (a what-if's reached leaves),
  // around the root and those nodes together, moved as little as it takes to show the focus
  // nodes whole (a path too long for the window keeps its end in view, not its root)
  const openingCentre = () => {
    const root = nodeBox(0);
    const focus = (data.focus || []).map(nodeBox).filter(Boolean);
    if (!focus.length) return root ? { x: (root.x0 + root.x1) / 2, y: (root.y0 + root.y1) / 2 } : null;
    const all = union(root ? [root, ...focus] : focus);
    const f = union(focus);
    const m = FOCUS_MARGIN / s; // the focus nodes clear of the frame's edges
    const keep = (c, lo, hi, win) =>
      hi - lo + 2 * m > win ? (lo + hi) / 2 : Math.min(Math.max(c, hi + m - win / 2), lo - m + win / 2);
    return {
      x: keep((all.x0 + all.x1) / 2, f.x0, f.x1, shown[0] / s),
      y: keep((all.y0 + all.y1) / 2, f.y0, f.y1, shown[1] / s),
    };
  };
  if (fixed) {
    el.style.width = `${box.width * s}px`;
    el.style.height = `${box.height * s}px`;
    // open on the root (and the focus nodes, as below): centred where the picture is larger
    // than the frame (the browser clamps the scroll at 0)
    const c = openingCentre();
    if (c) {
      stage.scrollLeft = (c.x - view.x) * s - stage.clientWidth / 2;
      stage.scrollTop = (c.y - view.y) * s - stage.clientHeight / 2;
    }
  } else if (width > 0) {
    // a window of the frame's size at that scale: the whole picture centred where it fits,
    // else around the root (and the focus nodes), kept inside the picture
    const rc = openingCentre();
    const place = (lo, size, win, centre) => {
      if (size <= win) return lo - (win - size) / 2;
      return Math.min(lo + size - win, Math.max(lo, centre - win / 2));
    };
    view.w = shown[0] / s;
    view.h = shown[1] / s;
    view.x = place(box.x, box.width, view.w, rc ? rc.x : box.x);
    view.y = place(box.y, box.height, view.h, rc ? rc.y : box.y);
  }
  frame._dtOpenedWidth = width;
  if (!fixed) el.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
}

// A hint that wraps onto more lines than its row holds (a narrow column) pushes the picture
// down instead of covering its top. Measured only once the frame has its width (a frame laid
// out at no width wraps every word), again when the width changes.
function placeStage(frame, stage, hint) {
  const lines = hint.style.display !== "none" && frame.clientWidth > 0 ? hint.offsetHeight + 14 : 0;
  const room = lines > 36 ? lines : 0;
  stage.style.marginTop = room ? `${room}px` : "";
  stage.style.height = room ? `calc(100% - ${room}px)` : "";
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const frame = parentElement.querySelector(".dt-frame");
  const stage = parentElement.querySelector(".dt-stage");
  const fitButton = parentElement.querySelector(".dt-fit");
  fitButton.textContent = data.fit || "fit";
  const hint = parentElement.querySelector(".dt-hint");
  hint.textContent = data.hint || "";
  hint.style.display = data.hint ? "block" : "none";
  frame.classList.toggle("dt-has-hint", Boolean(data.hint));
  placeStage(frame, stage, hint);
  const fixed = Boolean(data.fixed);
  frame.classList.toggle("dt-fixed", fixed);
  frame._dtFixed = fixed;
  frame.style.height = `${frame._dtHeight || data.height || 560}px`;
  clearTimeout(frame._dtAdvance); // a newer picture (or none) supersedes a pending report
  clearTimeout(frame._dtAsk); // and a pending request for a missing picture
  delete frame.dataset.step;
  let view = frame._dtView;
  if (frame._dtDigest !== data.digest || frame._dtMode !== fixed) {
    const svg = heldPicture(data.digest, data.svg);
    stage.replaceChildren();
    frame._dtDigest = null;
    if (!svg) {
      // told it holds a picture it does not (its cache was emptied): ask for the picture itself,
      // and again while it has not come (a request can be lost in a rerun that another click
      // interrupted; the page may not call this function again for the same data)
      if (!data.svg && data.digest) {
        let asked = 0;
        const ask = () => {
          if (frame._dtDigest || asked >= ASK_LIMIT) return;
          asked += 1;
          setTriggerValue("missing", data.digest);
          frame._dtAsk = setTimeout(ask, ASK_AGAIN_MS * asked);
        };
        ask();
      }
      return;
    }
    const shown = document.importNode(svg, true);
    shown.removeAttribute("width");
    shown.removeAttribute("height");
    stage.appendChild(shown);
    frame._dtDigest = data.digest;
    frame._dtMode = fixed;
    const box = shown.viewBox.baseVal;
    view = frame._dtView = { x: box.x, y: box.y, w: box.width, h: box.height, full: [box.x, box.y, box.width, box.height] };
    frame._dtTouched = false;
    openView(frame, stage, data);
  }
  const svg = stage.firstChild;
  if (!svg || !view) return;
  // a picture of a sequence (Growth's steps): its step on the frame (data-step) once it is in
  // place; with data.advance_ms (playing) the step is reported back ("drawn") that long after,
  // so the next step follows this one's drawing instead of a clock of its own
  if (data.step !== null && data.step !== undefined) {
    const step = data.step;
    frame.dataset.step = String(step);
    if (data.advance_ms !== null && data.advance_ms !== undefined) {
      frame._dtAdvance = setTimeout(() => setTriggerValue("drawn", step), data.advance_ms);
    }
  }
  const apply = () => {
    if (!frame._dtFixed) svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  };
  const fit = () => {
    [view.x, view.y, view.w, view.h] = view.full;
    apply();
  };
  const scale = () => {
    const r = frame.getBoundingClientRect();
    return Math.max(view.w / r.width, view.h / r.height);
  };
  frame._dtData = data;
  if (!frame._dtWired) {
    frame._dtWired = true;
    // the frame can open before the page has its final width (columns, the sidebar): reopen a
    // picture nobody has moved yet when the width changes
    new ResizeObserver(() => {
      placeStage(frame, stage, hint);
      if (frame._dtTouched || !frame._dtView || !stage.firstChild) return;
      if (stage.clientWidth > 0 && stage.clientWidth !== frame._dtOpenedWidth) {
        openView(frame, stage, frame._dtData);
      }
    }).observe(frame);
    frame.addEventListener("wheel", (e) => {
      if (frame._dtFixed) return; // the stage scrolls natively
      e.preventDefault();
      frame._dtTouched = true;
      const v = frame._dtView;
      const r = frame.getBoundingClientRect();
      const s = Math.max(v.w / r.width, v.h / r.height);
      // the point under the pointer stays put (the SVG is centred: preserveAspectRatio)
      const px = v.x + (e.clientX - r.left - (r.width - v.w / s) / 2) * s;
      const py = v.y + (e.clientY - r.top - (r.height - v.h / s) / 2) * s;
      const k = Math.exp(Math.sign(e.deltaY) * 0.15);
      v.x = px - (px - v.x) * k;
      v.y = py - (py - v.y) * k;
      v.w *= k;
      v.h *= k;
      frame.querySelector("svg").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    }, { passive: false });
    let drag = null;
    frame.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || e.target.closest(".dt-fit")) return;
      drag = {
        x: e.clientX, y: e.clientY, vx: frame._dtView.x, vy: frame._dtView.y,
        sl: stage.scrollLeft, st: stage.scrollTop, moved: false,
      };
    });
    frame.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
      if (!drag.moved) return;
      frame._dtTouched = true;
      frame.classList.add("dt-dragging");
      if (frame._dtFixed) {
        stage.scrollLeft = drag.sl - dx;
        stage.scrollTop = drag.st - dy;
        return;
      }
      const v = frame._dtView;
      const r = frame.getBoundingClientRect();
      const s = Math.max(v.w / r.width, v.h / r.height);
      v.x = drag.vx - dx * s;
      v.y = drag.vy - dy * s;
      frame.querySelector("svg").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
      frame.classList.add("dt-dragging");
    });
    const end = (e) => {
      if (!drag) return;
      const click = !drag.moved;
      drag = null;
      frame.classList.remove("dt-dragging");
      if (click) {
        const hit = target(e.target);
        if (hit) frame._dtSend(hit);
      }
    };
    frame.addEventListener("pointerup", end);
    frame.addEventListener("pointerleave", () => { drag = null; frame.classList.remove("dt-dragging"); });
    fitButton.addEventListener("click", () => {
      frame._dtTouched = true;
      frame._dtFit();
    });
  }
  frame._dtSend = (hit) => setTriggerValue("clicked", hit);
  frame._dtFit = fit;
  apply();
  void scale;
}
