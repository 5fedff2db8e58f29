// The player's plots, drawn as SVG by the page: rating over time (one point per rated,
// dated game) and results by year (stacked bars of wins, draws and losses).
import { svg, el } from './dom.js';

const W = 640;
const H = 220;
const M = { left: 48, right: 12, top: 12, bottom: 28 };

// A date key (20190517, 20190500, 20190000) as a fractional year.
function yearOf(key) {
  const year = Math.floor(key / 10000);
  const month = Math.floor(key / 100) % 100;
  const day = key % 100;
  return year + (month ? (month - 1) / 12 : 0) + (day ? (day - 1) / 365 : 0);
}

function axes(node, x0, x1, y0, y1, xTicks, yTicks, xLabel, yLabel) {
  const sx = (x) => M.left + ((x - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const sy = (y) => H - M.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  for (const t of yTicks) {
    node.append(svg('line', { x1: M.left, x2: W - M.right, y1: sy(t), y2: sy(t), class: 'grid' }));
    node.append(svg('text', { x: M.left - 6, y: sy(t) + 4, class: 'tick y', text: yLabel(t) }));
  }
  for (const t of xTicks) node.append(svg('text', { x: sx(t), y: H - 8, class: 'tick x', text: xLabel(t) }));
  return [sx, sy];
}

export function ratingPlot(points) {
  const node = svg('svg', { class: 'plot rating-plot', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rating over time' });
  if (points.length < 2) return el('p', { class: 'note', text: 'Too few rated, dated games for a rating plot.' });
  const xs = points.map(([d]) => yearOf(d));
  const ys = points.map(([, r]) => r);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = Math.floor(Math.min(...ys) / 50) * 50;
  const y1 = Math.ceil(Math.max(...ys) / 50) * 50;
  const step = Math.max(50, Math.ceil((y1 - y0) / 5 / 50) * 50);
  const yTicks = [];
  for (let t = y0; t <= y1; t += step) yTicks.push(t);
  const xTicks = [];
  for (let y = Math.ceil(x0); y <= Math.floor(x1); ++y) xTicks.push(y);
  if (!xTicks.length) xTicks.push(Math.floor(x0));
  const [sx, sy] = axes(node, x0, x1, y0, y1, xTicks, yTicks, (t) => String(Math.floor(t)), (t) => String(t));
  const d = points.map(([date, rating], i) => `${i ? 'L' : 'M'}${sx(yearOf(date)).toFixed(1)},${sy(rating).toFixed(1)}`).join('');
  node.append(svg('path', { d, class: 'rating-line' }));
  return node;
}

export function resultsPlot(years) {
  const dated = years.filter((y) => y.year !== null && y.year !== undefined);
  if (!dated.length) return el('p', { class: 'note', text: 'No dated games.' });
  const node = svg('svg', { class: 'plot results-plot', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'results by year' });
  const most = Math.max(...dated.map((y) => y.results.games));
  const band = (W - M.left - M.right) / dated.length;
  const yTicks = [0, Math.round(most / 2), most];
  const [, sy] = axes(node, 0, dated.length, 0, most, [], yTicks, () => '', (t) => String(t));
  dated.forEach((y, i) => {
    const x = M.left + i * band + band * 0.15;
    const width = band * 0.7;
    let base = 0;
    for (const [count, cls, label] of [[y.results.wins, 'win', 'wins'], [y.results.draws, 'draw', 'draws'], [y.results.losses, 'loss', 'losses']]) {
      if (!count) continue;
      const top = sy(base + count);
      node.append(svg('rect', { x, y: top, width, height: sy(base) - top, class: `bar-${cls}` },
        svg('title', { text: `${y.year}: ${count} ${label}` })));
      base += count;
    }
    node.append(svg('text', { x: x + width / 2, y: H - 8, class: 'tick x', text: String(y.year) }));
  });
  return node;
}
