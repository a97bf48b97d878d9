// The standalone page around the pan/zoom frame (dtcore/export/html.py): fold/unfold a subtree
// by clicking its node, search nodes by feature or label, and trace a sample through the tree.
// Runs after frame.js in one inline module; reads the tree from the JSON in #dt-data. Every piece
// of user text is set with textContent or as a property, never parsed as markup.
const DATA = JSON.parse(document.getElementById("dt-data").textContent);
const NODES = DATA.nodes;
const FEATURES = DATA.features;
// the page's words (dtcore/export/html.py's PAGE_WORDS, or the caller's language's), each
// "{name}" filled in from the values once (a value is never read as a template)
const WORDS = DATA.words;
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(values, k) ? String(values[k]) : m));
}
const folded = new Set();

function cutValue(c) {
  return c === "inf" ? Infinity : c === "-inf" ? -Infinity : c;
}

// Tree.route for one row: values[j] is a number, a category code (-1: a label the feature does
// not have), or null (missing). Returns Map node → weight reaching it.
function route(values) {
  const reach = new Map();
  const stack = [[0, 1]];
  while (stack.length) {
    const [n, w] = stack.pop();
    reach.set(n, (reach.get(n) || 0) + w);
    const node = NODES[n];
    if (node.feature < 0) continue;
    const v = values[node.feature];
    let b = -1;
    if (v !== null && v !== undefined) {
      if (node.cat_branch) {
        b = v >= 0 && v < node.cat_branch.length ? node.cat_branch[v] : -1;
      } else {
        b = 0;
        for (const c of node.cuts) if (v > cutValue(c)) b += 1;
      }
    }
    if (b < 0) b = node.missing_branch;
    if (b >= 0) {
      stack.push([node.children[b], w]);
      continue;
    }
    const kids = node.children;
    const total = kids.reduce((s, k) => s + NODES[k].weight, 0);
    for (let k = kids.length - 1; k >= 0; k -= 1) {
      const share = total > 0 ? NODES[kids[k]].weight / total : 1 / kids.length;
      stack.push([kids[k], w * share]);
    }
  }
  return reach;
}

function prediction(reach) {
  let mix = null;
  let value = 0;
  for (const [n, w] of reach) {
    const node = NODES[n];
    if (node.feature >= 0) continue;
    if (DATA.classes) {
      mix = mix || DATA.classes.map(() => 0);
      node.dist.forEach((p, k) => { mix[k] += w * p; });
    } else {
      value += w * (node.value === null ? NaN : node.value);
    }
  }
  if (!DATA.classes) {
    return fill(DATA.raw_score ? WORDS.raw_score : WORDS.predicted_value, { value: Number(value.toPrecision(6)) });
  }
  let best = 0;
  mix.forEach((p, k) => { if (p > mix[best]) best = k; });
  const parts = DATA.classes.map((c, k) => `${c} ${mix[k].toFixed(3)}`);
  return fill(WORDS.predicted_class, { label: DATA.classes[best], shares: parts.join(WORDS.list_sep) });
}

function descendants(n, out) {
  for (const k of NODES[n].children) {
    out.add(k);
    descendants(k, out);
  }
  return out;
}

function svg() {
  return document.querySelector("#dt-tree .dt-stage svg");
}

function byId(id) {
  const root = svg();
  return root ? root.querySelector(`[id="${id}"]`) : null;
}

function redraw() {
  const hidden = new Set();
  for (const n of folded) descendants(n, hidden);
  NODES.forEach((node, n) => {
    const g = byId(`dtnode${n}`);
    if (g) {
      g.classList.toggle("dt-hidden", hidden.has(n));
      g.classList.toggle("dt-folded", folded.has(n) && !hidden.has(n));
    }
    const more = byId(`dtmore${n}`);
    if (more) more.classList.toggle("dt-hidden", hidden.has(n) || folded.has(n));
    const moreEdge = byId(`dtedge${n}_more`);
    if (moreEdge) moreEdge.classList.toggle("dt-hidden", hidden.has(n) || folded.has(n));
    if (node.parent >= 0) {
      const e = byId(`dtedge${node.parent}_${n}`);
      if (e) e.classList.toggle("dt-hidden", hidden.has(n));
    }
  });
  for (const badge of svg().querySelectorAll(".dt-badge")) badge.remove();
  for (const n of folded) {
    if (hidden.has(n)) continue;
    const g = byId(`dtnode${n}`);
    if (!g) continue;
    const box = g.getBBox();
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("class", "dt-badge");
    t.setAttribute("x", String(box.x + box.width / 2));
    t.setAttribute("y", String(box.y + box.height + 14));
    t.setAttribute("text-anchor", "middle");
    t.textContent = fill(WORDS.folded_badge, { n: descendants(n, new Set()).size });
    g.appendChild(t);
  }
  const status = document.getElementById("dt-folds");
  if (status) status.textContent = folded.size ? fill(WORDS.folds, { n: folded.size }) : "";
}

function toggle(n) {
  if (!NODES[n] || !NODES[n].children.length) return;
  if (folded.has(n)) folded.delete(n);
  else folded.add(n);
  redraw();
}

function search(text) {
  const q = text.trim().toLowerCase();
  let count = 0;
  let inside = 0;
  const hidden = new Set();
  for (const n of folded) descendants(n, hidden);
  NODES.forEach((node, n) => {
    const hit = q !== "" && node.search.includes(q);
    const g = byId(`dtnode${n}`);
    if (g) g.classList.toggle("dt-match", hit);
    if (hit) {
      count += 1;
      if (hidden.has(n)) inside += 1;
    }
  });
  const out = document.getElementById("dt-search-count");
  out.textContent = q === "" ? "" : fill(WORDS.matches, { n: count }) + (inside ? fill(WORDS.matches_inside, { n: inside }) : "");
}

function buildForm() {
  const fields = document.getElementById("dt-fields");
  FEATURES.forEach((f, j) => {
    const label = document.createElement("label");
    label.className = "dt-field";
    const name = document.createElement("span");
    name.textContent = f.name;
    label.appendChild(name);
    let input;
    if (f.categories) {
      input = document.createElement("select");
      const none = document.createElement("option");
      none.value = "";
      none.textContent = WORDS.missing;
      input.appendChild(none);
      for (const c of f.categories) {
        const o = document.createElement("option");
        o.value = c;
        o.textContent = c;
        input.appendChild(o);
      }
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = "decimal";
      input.placeholder = WORDS.missing;
    }
    input.dataset.feature = String(j);
    label.appendChild(input);
    fields.appendChild(label);
  });
}

function formValues() {
  const values = FEATURES.map(() => null);
  for (const input of document.querySelectorAll("#dt-fields [data-feature]")) {
    const j = Number(input.dataset.feature);
    const raw = input.value.trim();
    if (raw === "") continue;
    if (FEATURES[j].categories) values[j] = FEATURES[j].categories.indexOf(input.value);
    else {
      const x = Number(raw);
      values[j] = Number.isFinite(x) ? x : null;
    }
  }
  return values;
}

function showPath(reach) {
  NODES.forEach((node, n) => {
    const on = reach !== null && reach.has(n);
    const g = byId(`dtnode${n}`);
    if (g) g.classList.toggle("dt-path", on);
    if (node.parent >= 0) {
      const e = byId(`dtedge${node.parent}_${n}`);
      if (e) e.classList.toggle("dt-path", on);
    }
  });
  const result = document.getElementById("dt-result");
  if (reach === null) {
    result.textContent = "";
    delete result.dataset.path;
    return;
  }
  const path = [...reach.keys()].sort((a, b) => a - b);
  const shared = path.some((n) => reach.get(n) < 1 - 1e-12);
  result.dataset.path = path.join(",");
  result.textContent = fill(WORDS.path, { prediction: prediction(reach), nodes: path.join(WORDS.list_sep) }) +
    (shared ? WORDS.shared : "");
}

function main() {
  const parentElement = document.getElementById("dt-tree");
  dtFrame({
    data: {
      svg: DATA.svg,
      fit: WORDS.fit,
      height: DATA.fit_height,
      hint: WORDS.hint,
      scale: null,
    },
    setTriggerValue: (_name, value) => {
      const m = /^node:(\d+)$/.exec(value || "");
      if (m) toggle(Number(m[1]));
    },
    parentElement,
  });
  buildForm();
  const tools = document.querySelector(".dt-tools");
  const folds = document.createElement("span");
  folds.id = "dt-folds";
  tools.appendChild(folds);
  document.getElementById("dt-search").addEventListener("input", (e) => search(e.target.value));
  document.getElementById("dt-expand").addEventListener("click", () => {
    folded.clear();
    redraw();
  });
  document.getElementById("dt-form").addEventListener("submit", (e) => {
    e.preventDefault();
    showPath(route(formValues()));
  });
  document.getElementById("dt-clear").addEventListener("click", () => {
    for (const input of document.querySelectorAll("#dt-fields [data-feature]")) input.value = "";
    showPath(null);
  });
  if (DATA.sample) {
    for (const input of document.querySelectorAll("#dt-fields [data-feature]")) {
      const v = DATA.sample[FEATURES[Number(input.dataset.feature)].name];
      input.value = v === null || v === undefined ? "" : String(v);
    }
    showPath(route(formValues()));
  }
  document.body.dataset.ready = "1";
}

main();
