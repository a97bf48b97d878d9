// The opening scale of a tree picture (ui/views/picture_scale.py), shared by frame.js and fit.js:
// a module they import (the app's server serves the three files); a page that holds its script
// inline gets this text without "export" in place of the import (dtcore.export.html.inline_script).
export function nodeFont(svg) {
  // the most common font size among the node labels, in the picture's own units
  const counts = new Map();
  for (const t of svg.querySelectorAll("g.node text")) {
    const f = parseFloat(t.getAttribute("font-size") || "0");
    if (f > 0) counts.set(f, (counts.get(f) || 0) + 1);
  }
  let best = 0, most = 0;
  for (const [f, n] of counts) if (n > most || (n === most && f > best)) [best, most] = [f, n];
  return best || 14;
}

export function openingScale(room, size, font, low, high) {
  // pixels per picture unit: the whole picture (size, in its units) in the room (CSS px), with
  // the node text between low and high px; past low it scrolls or pans
  const fits = [0, 1].filter((i) => room[i] > 0 && size[i] > 0).map((i) => room[i] / size[i]);
  const fit = fits.length ? Math.min(...fits) : high / font;
  return Math.min(high / font, Math.max(low / font, fit));
}

