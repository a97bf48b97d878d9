// Fits a browser-drawn tree picture (st.graphviz_chart, in the keyed container this component
// sits in: ui/sections/tree_frame.py, fitted_chart) to the container's width, with its node text
// between data.low and data.high CSS pixels; beyond that the picture keeps the bound and its box
// scrolls (at most data.max_height tall), opening on the root. The node text size is read
// from the SVG itself.
import { nodeFont, openingScale } from "./scale.js";
export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.getRootNode();
  const here = root && root.host ? root.host : parentElement;
  const box = here.closest('[class*="st-key-dtfit_"]');
  if (!box) return;
  const apply = () => {
    const chart = box.querySelector('[data-testid="stGraphVizChart"]');
    const node = chart && chart.querySelector("svg g.node"); // not the toolbar's icons
    const svg = node && node.closest("svg");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width) return;
    const room = [box.clientWidth, data.max_height - 16];
    const s = openingScale(room, [vb.width, vb.height], nodeFont(svg), data.low, data.high);
    const size = `${(vb.width * s).toFixed(1)}x${(vb.height * s).toFixed(1)}`;
    if (svg.dataset.dtFit === size) return;
    svg.dataset.dtFit = size;
    svg.style.setProperty("width", `${vb.width * s}px`, "important");
    svg.style.setProperty("height", `${vb.height * s}px`, "important");
    svg.style.setProperty("max-width", "none", "important");
    chart.style.overflow = "auto";
    chart.style.maxHeight = `${data.max_height}px`;
    // open on the root: centred where the picture is larger than its box (clamped at 0)
    const root = svg.querySelector('g[id="dtnode0"]');
    if (root) {
      const r = root.getBoundingClientRect();
      const s0 = svg.getBoundingClientRect();
      chart.scrollLeft = r.left - s0.left + r.width / 2 - chart.clientWidth / 2;
      chart.scrollTop = r.top - s0.top + r.height / 2 - chart.clientHeight / 2;
    }
  };
  apply();
  if (box._dtFitObserver) box._dtFitObserver.disconnect();
  box._dtFitObserver = new MutationObserver(apply); // the chart redraws its SVG after a rerun
  box._dtFitObserver.observe(box, { childList: true, subtree: true });
  if (!box._dtFitResize) {
    // the column can get its final width after the chart is drawn (the sidebar, columns)
    box._dtFitResize = new ResizeObserver(() => box._dtFitApply && box._dtFitApply());
    box._dtFitResize.observe(box);
  }
  box._dtFitApply = apply;
}
