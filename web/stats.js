// The database page: #/stats: `pgn-query stats`.
import { api } from './api.js';
import { el, clear, table } from './dom.js';

const bytes = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);

export async function showStats(root) {
  clear(root).append(el('p', { class: 'note', text: 'Loading…' }));
  let s;
  try {
    s = await api('/api/stats');
  } catch (error) {
    clear(root).append(el('p', { class: 'error', text: error.message }));
    return;
  }
  const facts = [
    ['Games', s.games.toLocaleString()], ['Players', s.players.toLocaleString()],
    ['Dates', s.first_date ? `${s.first_date} – ${s.last_date}` : 'none known'],
    ['Plies', s.plies.toLocaleString()], ['Chess960 games', s.chess960_games], ['Games from a set-up position', s.setup_games],
    ['ECO from tag / computed', `${s.eco_from_tag} / ${s.eco_computed}`], ['Copies (same game twice)', s.copies],
    ['Rejected games', s.rejects], ['Position index', `${s.position_index.segments} segments, ${s.position_index.postings.toLocaleString()} postings`],
  ];
  clear(root).append(el('div', { class: 'page stats' },
    el('h1', { text: 'Database' }),
    el('div', { class: 'cards' },
      el('div', { class: 'card' }, el('h2', { text: 'Contents' }), table([
        { title: '', cell: (f) => f[0] }, { title: '', class: 'num', cell: (f) => String(f[1]) }], facts)),
      el('div', { class: 'card' }, el('h2', { text: 'Rejects by kind' }),
        Object.keys(s.rejects_by_kind).length
          ? table([{ title: 'Kind', cell: (r) => r[0] }, { title: 'Games', class: 'num', cell: (r) => String(r[1]) }], Object.entries(s.rejects_by_kind))
          : el('p', { class: 'note', text: 'None: every game found was imported.' })),
      el('div', { class: 'card wide' }, el('h2', { text: 'Sources' }), table([
        { title: 'Id', class: 'num', cell: (r) => String(r.id) }, { title: 'Path', class: 'opening', cell: (r) => r.path },
        { title: 'Found', class: 'num', cell: (r) => String(r.games_found) }, { title: 'Imported', class: 'num', cell: (r) => String(r.imported) },
        { title: 'Rejected', class: 'num', cell: (r) => String(r.rejected) }, { title: 'Duplicates', class: 'num', cell: (r) => String(r.duplicates) },
        { title: 'Imported at', cell: (r) => r.imported_at }], s.sources)),
      el('div', { class: 'card' }, el('h2', { text: 'Storage' }), table([
        { title: 'Part', cell: (r) => r[0] }, { title: 'Size', class: 'num', cell: (r) => bytes(r[1]) }], Object.entries(s.storage))))));
}
