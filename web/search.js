// The search page: #/search?white=...&offset=50: the form with search's filters, and one
// page of results from the server, sorted by id, date or Elo.
import { api, compact } from './api.js';
import { el, clear, table } from './dom.js';

const PAGE = 25;
const TEXT_FIELDS = [
  ['white', 'White'], ['black', 'Black'], ['player', 'Either player'], ['event', 'Event'], ['site', 'Site'],
  ['date-from', 'Date from', '2019.05'], ['date-to', 'Date to', '2022'], ['eco', 'ECO', 'C60-C99'],
  ['min-elo', 'Min Elo'], ['max-elo', 'Max Elo'], ['time-control', 'Time control', 'blitz, 180+2'],
  ['min-plies', 'Min plies'], ['max-plies', 'Max plies'], ['moves', 'Moves', '1.e4 e5 2.Nf3'],
  ['fen', 'Position (FEN)'], ['material', 'Material', 'KRPvKR'], ['imbalance', 'Imbalance', 'QvRR'],
  ['pieces', 'Pieces', 'wKg1 wBg2'], ['pawns', 'Pawns', '8/pp3ppp/8/…'], ['for', 'For plies', '6'],
];
const FIELDS = [...TEXT_FIELDS.map(([n]) => n), 'result', 'order', 'desc', 'material-either-colour'];

export async function showSearch(root, params, navigate) {
  const input = ([name, label, placeholder]) =>
    el('label', {}, label, el('input', { name, value: params.get(name) || '', placeholder }));
  const select = (name, label, options) => el('label', {}, label, el('select', { name },
    options.map(([value, text]) => el('option', { value, text, selected: (params.get(name) || '') === value }))));
  const check = (name, label) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', name, checked: params.get(name) === 'true' }), label);
  const form = el('form', { class: 'search-form' },
    TEXT_FIELDS.map(input),
    select('result', 'Result', [['', 'any'], ['1-0', '1-0'], ['1/2-1/2', '½-½'], ['0-1', '0-1'], ['*', '*']]),
    select('order', 'Order', [['', 'input order'], ['date', 'date'], ['elo', 'Elo (strongest first)']]),
    check('desc', 'reversed'), check('material-either-colour', 'material either colour'),
    el('div', { class: 'form-buttons' },
      el('button', { type: 'submit', text: 'Search' }),
      el('button', { type: 'button', class: 'secondary', text: 'Clear', onclick: () => navigate('/search', {}) })));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = {};
    for (const name of FIELDS) {
      const field = form.elements.namedItem(name);
      values[name] = field.type === 'checkbox' ? (field.checked ? 'true' : '') : field.value.trim();
    }
    navigate('/search', compact(values));
  });
  const results = el('div', { class: 'results' });
  clear(root).append(el('div', { class: 'page search' },
    el('h1', { text: 'Search games' }), form, results));

  const query = {};
  for (const name of FIELDS) if (params.get(name)) query[name] = params.get(name);
  if (!Object.keys(query).length && !params.get('all')) {
    results.append(el('p', { class: 'note', text: 'Fill in any filters and search; an empty form lists every game.' }),
      el('a', { href: '#/search?all=1', text: 'List all games' }));
    return;
  }
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  results.append(el('p', { class: 'note', text: 'Searching…' }));
  let answer;
  try {
    answer = await api('/api/search', { ...query, offset, limit: PAGE });
  } catch (error) {
    clear(results).append(el('p', { class: 'error', text: error.message }));
    return;
  }
  const page = (to) => navigate('/search', compact({ ...query, all: params.get('all'), offset: to || '' }));
  const last = offset + answer.games.length;
  // total is null where the server did not count (too many games to replay or scan).
  const count = !answer.games.length ? (offset ? 'No games past this page' : 'No games match')
    : answer.total === null ? `${offset + 1}–${last} of more than ${last.toLocaleString()} games`
      : `${offset + 1}–${last} of ${answer.total.toLocaleString()} games`;
  const pager = el('div', { class: 'pager' },
    el('button', { type: 'button', class: 'secondary', text: '← Previous', disabled: offset === 0, onclick: () => page(Math.max(0, offset - PAGE)) }),
    el('span', { class: 'count', text: count }),
    el('button', { type: 'button', class: 'secondary', text: 'Next →', disabled: !answer.more, onclick: () => page(offset + PAGE) }));
  const ply = (g) => g.matchPly ?? g.atPly;
  clear(results).append(pager, table([
    { title: 'Id', class: 'num', cell: (g) => String(g.id) },
    { title: 'White', cell: (g) => g.white || '?' },
    { title: 'Elo', class: 'num', cell: (g) => (g.whiteElo ? String(g.whiteElo) : '') },
    { title: 'Black', cell: (g) => g.black || '?' },
    { title: 'Elo', class: 'num', cell: (g) => (g.blackElo ? String(g.blackElo) : '') },
    { title: 'Result', cell: (g) => g.result },
    { title: 'Date', cell: (g) => g.date || '' },
    { title: 'ECO', cell: (g) => g.eco || '' },
    { title: 'Event', class: 'opening', cell: (g) => g.event || '' },
    { title: 'Plies', class: 'num', cell: (g) => String(g.plies) },
    ...(answer.games.some((g) => ply(g) !== null) ? [{ title: 'At ply', class: 'num', cell: (g) => (ply(g) ?? '') + '' }] : []),
  ], answer.games, (g) => navigate(`/game/${g.id}`, ply(g) !== null ? { ply: ply(g) } : {})));
}
