// The explorer page: #/explorer?fen=FEN&play=e2e4,e7e5&min-elo=...: the board, the
// moves from the position with their results, the line so far, filters and top games.
import { api, compact } from './api.js';
import { Board } from './board.js';
import { el, clear, table, percent, copyText } from './dom.js';

export const EXPLORER_FILTERS = ['min-elo', 'max-elo', 'date-from', 'date-to', 'time-control', 'player', 'as', 'event', 'eco'];
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

function resultBar(move) {
  const total = move.white + move.draws + move.black;
  const bar = el('div', { class: 'bar', title: `White ${move.white}, draws ${move.draws}, Black ${move.black}` });
  for (const [count, cls] of [[move.white, 'w'], [move.draws, 'd'], [move.black, 'b']]) {
    const part = el('span', { class: cls, text: total && count / total >= 0.12 ? percent(count, total) : '' });
    part.style.width = total ? `${(100 * count) / total}%` : '0';
    bar.append(part);
  }
  return bar;
}

function filterForm(params, go) {
  const field = (name, label, attrs = {}) =>
    el('label', {}, label, el('input', { name, value: params.get(name) || '', ...attrs }));
  const speed = el('select', { name: 'time-control' },
    ['', 'ultrabullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'].map((s) =>
      el('option', { value: s, text: s || 'any speed', selected: params.get('time-control') === s })));
  const colour = el('select', { name: 'as' },
    [['', 'either colour'], ['white', 'as White'], ['black', 'as Black']].map(([v, t]) =>
      el('option', { value: v, text: t, selected: params.get('as') === v })));
  const form = el('form', { class: 'filters' },
    field('min-elo', 'Elo from', { type: 'number', min: 0, max: 4000, step: 50 }),
    field('max-elo', 'to', { type: 'number', min: 0, max: 4000, step: 50 }),
    field('date-from', 'Date from', { placeholder: '2019.05', size: 10 }),
    field('date-to', 'to', { placeholder: '2022', size: 10 }),
    el('label', {}, 'Speed', speed),
    field('player', 'Player', { placeholder: 'name', size: 14 }),
    el('label', {}, 'Colour', colour),
    el('button', { type: 'submit', text: 'Apply' }),
    el('button', { type: 'button', class: 'secondary', text: 'Clear', onclick: () => go({ clearFilters: true }) }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = {};
    for (const name of EXPLORER_FILTERS) {
      const input = form.elements.namedItem(name);
      values[name] = input ? input.value.trim() : params.get(name) || '';
    }
    go({ filters: values });
  });
  return form;
}

export async function showExplorer(root, params, navigate) {
  const fen = params.get('fen') || '';
  const play = (params.get('play') || '').split(',').filter(Boolean);
  const filters = {};
  for (const name of EXPLORER_FILTERS) filters[name] = params.get(name) || '';

  const go = ({ newFen = fen, newPlay = play, filters: f = filters, clearFilters = false }) => {
    const all = compact({ fen: newFen, play: newPlay.join(','), ...(clearFilters ? {} : f) });
    navigate('/explorer', all);
  };

  const board = new Board({ onMove: (uci) => go({ newPlay: [...play, uci] }) });
  const status = el('div', { class: 'note' });
  const lineBox = el('div', { class: 'line' });
  const fenInput = el('input', { class: 'fen', 'aria-label': 'FEN', spellcheck: 'false' });
  const fenBox = el('form', { class: 'fen-box' }, fenInput,
    el('button', { type: 'submit', text: 'Set' }),
    el('button', { type: 'button', class: 'secondary', text: 'Copy', onclick: (e) => copyText(fenInput.value, e.target) }));
  fenBox.addEventListener('submit', (event) => {
    event.preventDefault();
    go({ newFen: fenInput.value.trim() === START ? '' : fenInput.value.trim(), newPlay: [] });
  });
  const movesBox = el('div', { class: 'moves-box' }, el('p', { class: 'note', text: 'Loading…' }));
  const topBox = el('div', { class: 'top-games' });
  const controls = el('div', { class: 'board-controls' },
    el('button', { type: 'button', class: 'secondary', text: '⟲ Start', onclick: () => go({ newFen: '', newPlay: [] }) }),
    el('button', { type: 'button', class: 'secondary', text: '← Back', disabled: !play.length, onclick: () => go({ newPlay: play.slice(0, -1) }) }),
    el('button', { type: 'button', class: 'secondary', text: 'Flip', onclick: () => board.flip() }));
  const searchLink = el('a', { class: 'button-link', text: 'Search games with this position' });

  clear(root).append(el('div', { class: 'page explorer' },
    el('section', { class: 'left' }, board.node, controls, fenBox, lineBox),
    el('section', { class: 'right' },
      el('h1', { id: 'opening-name', text: 'Opening explorer' }),
      filterForm(params, go), status, movesBox, searchLink, topBox)));

  let position;
  let result;
  try {
    [position, result] = await Promise.all([
      api('/api/position', compact({ fen, play: play.join(',') })),
      api('/api/explorer', compact({ fen, play: play.join(','), ...filters, topGames: 8 })),
    ]);
  } catch (error) {
    clear(movesBox).append(el('p', { class: 'error', text: error.message }));
    return;
  }
  board.set({ fen: position.fen, legal: position.legal, lastMove: play[play.length - 1] || '' });
  fenInput.value = position.fen;
  searchLink.href = `#/search?${new URLSearchParams({ fen: position.fen })}`;

  clear(lineBox);
  lineBox.append(el('a', { href: '#', text: 'start', onclick: (e) => { e.preventDefault(); go({ newPlay: [] }); } }));
  const startFen = (fen || START).split(' ');
  let number = Number(startFen[5] || 1);
  let white = startFen[1] !== 'b';
  position.line.forEach((san, index) => {
    if (white) lineBox.append(el('span', { class: 'move-number', text: `${number}.` }));
    else if (index === 0) lineBox.append(el('span', { class: 'move-number', text: `${number}…` }));
    lineBox.append(el('a', {
      href: '#', class: index === play.length - 1 ? 'current' : '', text: san,
      onclick: (e) => { e.preventDefault(); go({ newPlay: play.slice(0, index + 1) }); },
    }));
    if (!white) number += 1;
    white = !white;
  });

  const opening = result.opening;
  root.querySelector('#opening-name').textContent = opening ? `${opening.eco} ${opening.name}` : 'Opening explorer';
  status.textContent = `${result.games.toLocaleString()} ${result.games === 1 ? 'game reaches' : 'games reach'} this position` +
    (result.endedHere ? `, ${result.endedHere} ended here` : '');

  const total = result.moves.reduce((sum, m) => sum + m.games, 0);
  const rows = [...result.moves];
  const summary = { san: 'Σ', games: total, white: result.white, draws: result.draws, black: result.black };
  clear(movesBox).append(result.moves.length ? table([
    { title: 'Move', class: 'move', cell: (m) => m.san },
    { title: 'Games', class: 'num', cell: (m) => m.games.toLocaleString() },
    { title: 'Share', class: 'num', cell: (m) => percent(m.games, total) },
    { title: 'White / draw / Black', class: 'bar-cell', cell: (m) => resultBar(m) },
    { title: 'Avg Elo', class: 'num', cell: (m) => (m.averageRating ? String(m.averageRating) : '') },
    { title: 'Opening', class: 'opening', cell: (m) => (m.opening && (!opening || m.opening.name !== opening.name) ? `${m.opening.eco} ${m.opening.name}` : '') },
  ], [...rows, summary], (m) => { if (m.uci) go({ newPlay: [...play, m.uci] }); })
    : el('p', { class: 'note', text: 'No games continue from this position with these filters.' }));

  clear(topBox);
  if (result.topGames.length) {
    topBox.append(el('h2', { text: 'Top games' }), table([
      { title: 'White', cell: (g) => `${g.white.name}${g.white.rating ? ` (${g.white.rating})` : ''}` },
      { title: 'Black', cell: (g) => `${g.black.name}${g.black.rating ? ` (${g.black.rating})` : ''}` },
      { title: 'Result', cell: (g) => g.result },
      { title: 'Date', cell: (g) => g.date },
      { title: 'Move', cell: (g) => (g.uci ? (result.moves.find((m) => m.uci === g.uci) || {}).san || '' : '') },
    ], result.topGames, (g) => navigate(`/game/${g.id}`, { fen: position.fen })));
  }
}
