// The player page: #/player/NAME: `pgn-query player`'s report with two plots.
import { api } from './api.js';
import { el, clear, table } from './dom.js';
import { ratingPlot, resultsPlot } from './plot.js';

const score = (r) => `${(100 * r.score).toFixed(1)}%`;
const resultColumns = [
  { title: 'Games', class: 'num', cell: (r) => String(r.results.games) },
  { title: '+', class: 'num', cell: (r) => String(r.results.wins) },
  { title: '=', class: 'num', cell: (r) => String(r.results.draws) },
  { title: '−', class: 'num', cell: (r) => String(r.results.losses) },
  { title: 'Score', class: 'num', cell: (r) => score(r.results) },
];

export async function showPlayer(root, name, navigate) {
  clear(root).append(el('p', { class: 'note', text: 'Loading…' }));
  let report;
  try {
    report = await api('/api/player', { name, top: 10 });
  } catch (error) {
    clear(root).append(el('div', { class: 'page' }, el('h1', { text: name }), el('p', { class: 'error', text: error.message })));
    return;
  }
  const game = (g) => navigate(`/game/${g.id}`, {});
  const playerLink = (n) => el('a', { href: `#/player/${encodeURIComponent(n)}`, text: n });
  const totals = [['All games', report.total], ['As White', report.as_white], ['As Black', report.as_black]]
    .map(([label, results]) => ({ label, results }));
  const wins = (list) => table([
    { title: 'Plies', class: 'num', cell: (g) => String(g.plies) },
    { title: 'As', cell: (g) => g.as },
    { title: 'Opponent', cell: (g) => g.opponent },
    { title: 'Date', cell: (g) => g.date || '' },
    { title: 'ECO', cell: (g) => g.eco || '' },
    { title: 'Event', class: 'opening', cell: (g) => g.event || '' },
  ], list, game);
  clear(root).append(el('div', { class: 'page player' },
    el('h1', { text: report.names.join(', ') }),
    el('p', { class: 'note', text: `${report.total.games.toLocaleString()} games${report.first_date ? `, ${report.first_date} – ${report.last_date}` : ''}` }),
    el('div', { class: 'cards' },
      el('div', { class: 'card' }, el('h2', { text: 'Results' }), table([{ title: '', cell: (r) => r.label }, ...resultColumns], totals)),
      el('div', { class: 'card wide' }, el('h2', { text: 'Rating over time' }), ratingPlot(report.ratings)),
      el('div', { class: 'card wide' }, el('h2', { text: 'Results by year' }), resultsPlot(report.years),
        el('p', { class: 'legend' }, el('span', { class: 'key win', text: 'wins' }), el('span', { class: 'key draw', text: 'draws' }), el('span', { class: 'key loss', text: 'losses' }))),
      el('div', { class: 'card' }, el('h2', { text: 'By year' }), table([
        { title: 'Year', cell: (y) => (y.year ?? 'unknown') + '' }, ...resultColumns,
        { title: 'First', class: 'num', cell: (y) => (y.first_elo ?? '') + '' },
        { title: 'Last', class: 'num', cell: (y) => (y.last_elo ?? '') + '' },
        { title: 'Peak', class: 'num', cell: (y) => (y.peak_elo ?? '') + '' },
      ], report.years)),
      el('div', { class: 'card' }, el('h2', { text: 'Openings' }), table([
        { title: 'As', cell: (o) => o.as }, { title: 'ECO', cell: (o) => o.eco },
        { title: 'Opening', class: 'opening', cell: (o) => o.opening }, ...resultColumns,
      ], report.openings)),
      el('div', { class: 'card' }, el('h2', { text: 'Opponents' }), table([
        { title: 'Opponent', cell: (o) => playerLink(o.name) }, ...resultColumns,
      ], report.opponents)),
      el('div', { class: 'card' }, el('h2', { text: 'Longest wins' }), wins(report.longest_wins)),
      el('div', { class: 'card' }, el('h2', { text: 'Shortest wins' }), wins(report.shortest_wins)),
    ),
    el('p', { class: 'note' }, el('a', { href: `#/search?${new URLSearchParams({ player: name })}`, text: 'All games of this player' })),
  ));
}
