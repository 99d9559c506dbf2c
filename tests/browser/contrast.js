// The text of the page whose contrast with what is behind it is under 4.5:1 (WCAG AA), as
// "TAG.class \"text\" ratio" lines. Text on pictures or gradients, in SVG and in disabled controls
// (which WCAG exempts) is left out; opacity on the way up is counted in.
() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, bottom) => ({r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  const background = (node) => {
    const layers = [];
    for (let e = node; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== "none") return null;  // a picture or a gradient: not judged here
      const c = parse(s.backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let colour = {r: 255, g: 255, b: 255, a: 1};
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || seen.has(e) || e.closest("svg, [disabled], [aria-disabled=true], .btn:disabled")) continue;
    seen.add(e);
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || !e.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    let opacity = 1;
    for (let a = e; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
    const bg = background(e);
    if (!bg) continue;
    const fg = parse(getComputedStyle(e).color);
    const seenFg = over({...fg, a: fg.a * opacity}, bg);
    const [l1, l2] = [lum(seenFg), lum(bg)].sort((x, y) => y - x);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    if (ratio < 4.5) out.push(`${e.tagName}.${e.className} "${t.textContent.trim().slice(0, 24)}" ${ratio.toFixed(2)}`);
  }
  return out;
}
