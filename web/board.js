// The chess board: an SVG of 8x8 squares with the pieces drawn as the Unicode chess
// glyphs (U+265A-U+265F, in the browser's font: DejaVu Sans on Debian), White's
// filled white with a dark outline. It flips, highlights the last move, marks the legal
// targets of a selected piece, and takes moves by click or drag (pointer events: mouse,
// pen and touch); a pawn reaching the last rank asks which piece it becomes (queen, rook,
// bishop, knight, in a column over the promotion square, as lichess does). The rules are
// the server's: legal moves come from /api/position.
import { svg } from './dom.js';

const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
const FILES = 'abcdefgh';

export function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

// The pieces of a FEN's first field as {square: 'P' | 'k' ...}.
export function piecesOf(fen) {
  const pieces = {};
  const ranks = fen.split(' ')[0].split('/');
  ranks.forEach((row, index) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') file += Number(ch);
      else pieces[squareName(file++, 7 - index)] = ch;
    }
  });
  return pieces;
}

export class Board {
  // onMove(uci) is called for a legal move made on the board (none when null).
  constructor({ onMove = null } = {}) {
    this.onMove = onMove;
    this.flipped = false;
    this.fen = '';
    this.legal = [];
    this.lastMove = '';
    this.selected = null;
    this.node = svg('svg', { class: 'board', viewBox: '0 0 8 8', role: 'img', 'aria-label': 'chess board' });
    this.node.addEventListener('pointerdown', (event) => this.pointerDown(event));
    this.node.addEventListener('pointermove', (event) => this.pointerMove(event));
    this.node.addEventListener('pointerup', (event) => this.pointerUp(event));
    this.node.addEventListener('pointercancel', () => this.endDrag());
  }

  set({ fen, legal = [], lastMove = '' }) {
    this.fen = fen;
    this.legal = legal;
    this.lastMove = lastMove;
    this.selected = null;
    this.promotion = null;
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  // The square's top-left corner in the SVG's 8x8 units.
  corner(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square[1]) - 1;
    return this.flipped ? [7 - file, rank] : [file, 7 - rank];
  }

  squareAt(event) {
    const box = this.node.getBoundingClientRect();
    let x = Math.floor(((event.clientX - box.left) / box.width) * 8);
    let y = Math.floor(((event.clientY - box.top) / box.height) * 8);
    if (x < 0 || x > 7 || y < 0 || y > 7) return null;
    return this.flipped ? squareName(7 - x, y) : squareName(x, 7 - y);
  }

  targetsOf(from) {
    return this.legal.filter((m) => m.uci.startsWith(from)).map((m) => m.uci.slice(2, 4));
  }

  draw() {
    const node = this.node;
    while (node.firstChild) node.firstChild.remove();
    const marked = new Set();
    if (this.lastMove) {
      marked.add(this.lastMove.slice(0, 2));
      marked.add(this.lastMove.slice(2, 4));
    }
    const targets = new Set(this.selected ? this.targetsOf(this.selected) : []);
    const pieces = piecesOf(this.fen);
    for (let file = 0; file < 8; ++file) {
      for (let rank = 0; rank < 8; ++rank) {
        const square = squareName(file, rank);
        const [x, y] = this.corner(square);
        const light = (file + rank) % 2 === 1;
        let cls = light ? 'sq light' : 'sq dark';
        if (marked.has(square)) cls += ' last';
        if (square === this.selected) cls += ' selected';
        node.append(svg('rect', { x, y, width: 1, height: 1, class: cls, 'data-square': square }));
      }
    }
    // Coordinates along the bottom and left edges.
    for (let i = 0; i < 8; ++i) {
      const file = this.flipped ? 7 - i : i;
      const rank = this.flipped ? i : 7 - i;
      node.append(svg('text', { x: i + 0.97, y: 7.97, class: 'coord file', text: FILES[file] }));
      node.append(svg('text', { x: 0.04, y: i + 0.2, class: 'coord rank', text: String(rank + 1) }));
    }
    for (const [square, piece] of Object.entries(pieces)) {
      if (this.dragging && this.dragging.from === square) continue;
      node.append(this.pieceNode(square, piece));
    }
    for (const square of targets) {
      const [x, y] = this.corner(square);
      const capture = pieces[square] !== undefined;
      node.append(svg('circle', {
        cx: x + 0.5, cy: y + 0.5, r: capture ? 0.46 : 0.16,
        class: capture ? 'target capture' : 'target', 'data-target': square,
      }));
    }
    if (this.dragging) {
      const piece = pieces[this.dragging.from];
      if (piece) node.append(this.pieceNode(null, piece, this.dragging.x, this.dragging.y));
    }
    if (this.promotion) this.drawPromotion(pieces);
  }

  // The squares of the promotion choice: from the promotion square towards the board's
  // middle, queen first.
  promotionSquares() {
    const { to } = this.promotion;
    const step = to[1] === '8' ? -1 : 1;
    return ['q', 'r', 'b', 'n'].map((letter, i) => ({ letter, square: to[0] + String(Number(to[1]) + step * i) }));
  }

  drawPromotion(pieces) {
    const white = pieces[this.promotion.from] === 'P';
    this.node.append(svg('rect', { x: 0, y: 0, width: 8, height: 8, class: 'promotion-shade' }));
    for (const { letter, square } of this.promotionSquares()) {
      const [x, y] = this.corner(square);
      this.node.append(svg('rect', { x, y, width: 1, height: 1, class: 'promotion-choice', 'data-promote': letter }));
      this.node.append(this.pieceNode(square, white ? letter.toUpperCase() : letter));
    }
  }

  pieceNode(square, piece, x, y) {
    if (square) {
      const [cx, cy] = this.corner(square);
      x = cx + 0.5;
      y = cy + 0.5;
    }
    const white = piece === piece.toUpperCase();
    return svg('text', {
      x, y, class: white ? 'piece white' : 'piece black', 'data-piece': square || 'drag',
      text: GLYPHS[piece.toLowerCase()],
    });
  }

  ownPiece(square) {
    const piece = piecesOf(this.fen)[square];
    if (!piece) return false;
    const whiteToMove = this.fen.split(' ')[1] === 'w';
    return (piece === piece.toUpperCase()) === whiteToMove;
  }

  // Plays from -> to when legal (a promotion first asks for the piece); true when it did
  // or when it now asks.
  tryMove(from, to) {
    const moves = this.legal.filter((m) => m.uci.slice(0, 4) === from + to);
    if (!moves.length || !this.onMove) return false;
    this.selected = null;
    if (moves.length > 1) {  // the four promotions
      this.promotion = { from, to };
      this.draw();
      return true;
    }
    this.onMove(moves[0].uci);
    return true;
  }

  // A click while the promotion choice is shown: a piece plays the move, anything else
  // takes the pawn back.
  choosePromotion(square) {
    const { from, to } = this.promotion;
    const chosen = this.promotionSquares().find((c) => c.square === square);
    this.promotion = null;
    if (chosen) this.onMove(from + to + chosen.letter);
    else this.draw();
  }

  pointerDown(event) {
    if (!this.onMove) return;
    const square = this.squareAt(event);
    if (this.promotion) {
      this.choosePromotion(square);
      event.preventDefault();
      return;
    }
    if (!square) return;
    if (this.selected && this.selected !== square && this.tryMove(this.selected, square)) return;
    if (this.ownPiece(square)) {
      this.selected = square;
      const box = this.node.getBoundingClientRect();
      this.dragging = { from: square, start: [event.clientX, event.clientY], moved: false, box };
      this.node.setPointerCapture?.(event.pointerId);
      event.preventDefault();
    } else {
      this.selected = null;
    }
    this.draw();
  }

  pointerMove(event) {
    const drag = this.dragging;
    if (!drag) return;
    const dx = event.clientX - drag.start[0];
    const dy = event.clientY - drag.start[1];
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    drag.x = ((event.clientX - drag.box.left) / drag.box.width) * 8;
    drag.y = ((event.clientY - drag.box.top) / drag.box.height) * 8;
    this.draw();
  }

  pointerUp(event) {
    const drag = this.dragging;
    if (!drag) return;
    this.dragging = null;
    if (drag.moved) {
      const square = this.squareAt(event);
      if (square && square !== drag.from && this.tryMove(drag.from, square)) return;
    }
    this.draw();
  }

  endDrag() {
    this.dragging = null;
    this.draw();
  }
}
