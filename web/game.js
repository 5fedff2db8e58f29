// The game viewer: #/game/ID?ply=N (or ?fen=FEN: the first ply with that position).
// Board, header, moves with comments, NAGs and variations; arrow keys step.
import { api } from './api.js';
import { Board } from './board.js';
import { el, clear, copyText } from './dom.js';

const NAGS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 7: '□', 10: '=', 13: '∞', 14: '⩲', 15: '⩱', 16: '±', 17: '∓', 18: '+−', 19: '−+', 22: '⨀', 32: '⟳', 36: '→', 40: '↑', 132: '⇆', 138: '⨁', 146: 'N' };

const samePosition = (a, b) => a.split(' ').slice(0, 4).join(' ') === b.split(' ').slice(0, 4).join(' ');

function evalText(value) {
  if (!value) return '';
  if (value.startsWith('#')) return value;
  const n = Number(value);
  return Number.isFinite(n) ? (n > 0 ? `+${n.toFixed(2)}` : n.toFixed(2)) : value;
}

let keyHandler = null;

export async function showGame(root, id, params, navigate, replace) {
  clear(root).append(el('p', { class: 'note', text: 'Loading…' }));
  let game;
  try {
    game = await api(`/api/game/${encodeURIComponent(id)}`);
  } catch (error) {
    clear(root).append(el('p', { class: 'error', text: error.message }));
    return;
  }
  const fens = [game.startFen, ...game.moves.map((m) => m.fen)];
  let ply = Math.min(Number(params.get('ply')) || 0, game.moves.length);
  if (params.get('fen')) {
    const found = fens.findIndex((f) => samePosition(f, params.get('fen')));
    if (found >= 0) ply = found;
  }

  const board = new Board();
  const moveNodes = [];
  const info = el('div', { class: 'ply-info' });
  const explorerLink = el('a', { class: 'button-link', text: 'Open this position in the explorer' });

  const show = (next) => {
    ply = Math.max(0, Math.min(game.moves.length, next));
    const move = game.moves[ply - 1];
    board.set({ fen: fens[ply], lastMove: move ? move.uci : '' });
    moveNodes.forEach((node, index) => node.classList.toggle('current', index === ply - 1));
    if (ply > 0) moveNodes[ply - 1].scrollIntoView({ block: 'nearest' });
    clear(info);
    const clockOf = (color) => {
      for (let i = ply - 1; i >= 0; --i) if ((i % 2 === 0) === (color === 'w') && game.moves[i].clock) return game.moves[i].clock;
      return '';
    };
    const parts = [`Ply ${ply} of ${game.moves.length}`];
    if (move && move.eval) parts.push(`eval ${evalText(move.eval)}`);
    info.append(el('span', { text: parts.join(' · ') }));
    const white = clockOf(game.startFen.split(' ')[1] === 'w' ? 'w' : 'b');
    const black = clockOf(game.startFen.split(' ')[1] === 'w' ? 'b' : 'w');
    if (white || black) info.append(el('span', { class: 'clocks', text: `Clock: White ${white || '–'}, Black ${black || '–'}` }));
    explorerLink.href = `#/explorer?${new URLSearchParams({ fen: fens[ply] })}`;
    replace(`/game/${game.id}`, ply ? { ply } : {});
  };

  const tag = (name) => (game.tags.find(([n]) => n === name) || [])[1] || '';
  const player = (name, elo) => el('span', {},
    el('a', { href: `#/player/${encodeURIComponent(name)}`, text: name }), elo ? ` (${elo})` : '');
  const header = el('div', { class: 'game-header' },
    el('h1', {}, player(game.white, game.whiteElo), ' – ', player(game.black, game.blackElo), ` ${game.result}`),
    el('p', { class: 'note', text: [tag('Event'), tag('Site'), tag('Date'), game.eco && `${game.eco} ${game.opening}`].filter((t) => t && t !== '?' && t !== '????.??.??').join(' · ') }));
  const tagList = el('details', { class: 'tags' }, el('summary', { text: 'All tags' }),
    el('dl', {}, game.tags.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', { text: value })])));

  const notes = (m, into) => {
    for (const nag of m.nags) into.append(el('span', { class: 'nag', text: NAGS[nag] || `$${nag}` }));
    if (m.clock) into.append(el('span', { class: 'clock', text: m.clock }));
    if (m.eval) into.append(el('span', { class: 'eval', text: evalText(m.eval) }));
    for (const comment of m.comments) into.append(el('span', { class: 'comment', text: comment }));
    for (const variation of m.variations) into.append(el('span', { class: 'variation', text: `(${variation})` }));
  };
  const movesBox = el('div', { class: 'game-moves', tabindex: 0 });
  notes(game, movesBox);
  const startFields = game.startFen.split(' ');
  let number = Number(startFields[5] || 1);
  game.moves.forEach((m, index) => {
    const whiteMove = (index % 2 === 0) === (startFields[1] === 'w');
    if (whiteMove) movesBox.append(el('span', { class: 'move-number', text: `${number}.` }));
    else if (index === 0) movesBox.append(el('span', { class: 'move-number', text: `${number}…` }));
    const node = el('a', { href: '#', class: 'move', text: m.san, onclick: (e) => { e.preventDefault(); show(index + 1); } });
    moveNodes.push(node);
    movesBox.append(node);
    notes(m, movesBox);
    if (!whiteMove) number += 1;
  });
  for (const comment of game.after) movesBox.append(el('span', { class: 'comment', text: comment }));
  movesBox.append(el('span', { class: 'result', text: game.result }));

  const step = (delta) => () => show(ply + delta);
  const controls = el('div', { class: 'board-controls' },
    el('button', { type: 'button', class: 'secondary', text: '«', title: 'start (Home)', onclick: () => show(0) }),
    el('button', { type: 'button', class: 'secondary', text: '‹', title: 'back (←)', onclick: step(-1) }),
    el('button', { type: 'button', class: 'secondary', text: '›', title: 'forward (→)', onclick: step(1) }),
    el('button', { type: 'button', class: 'secondary', text: '»', title: 'end (End)', onclick: () => show(game.moves.length) }),
    el('button', { type: 'button', class: 'secondary', text: 'Flip', onclick: () => board.flip() }),
    el('button', { type: 'button', class: 'secondary', text: 'Copy PGN', onclick: (e) => copyText(game.pgn, e.target) }),
    el('button', { type: 'button', class: 'secondary', text: 'Copy FEN', onclick: (e) => copyText(fens[ply], e.target) }));

  clear(root).append(el('div', { class: 'page game' },
    el('section', { class: 'left' }, board.node, controls, info, explorerLink),
    el('section', { class: 'right' }, header, movesBox, tagList)));

  if (keyHandler) document.removeEventListener('keydown', keyHandler);
  keyHandler = (event) => {
    if (!root.querySelector('.page.game') || event.target.closest('input, textarea, select')) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -ply, ArrowDown: game.moves.length, Home: -ply, End: game.moves.length };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(ply + moves[event.key]);
  };
  document.addEventListener('keydown', keyHandler);
  show(ply);
}
