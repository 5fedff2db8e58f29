// The page's router: every state is a hash route (#/explorer?..., #/game/ID?ply=N,
// #/search?..., #/player/NAME, #/stats), so it can be shared, reloaded and gone back to.
import { showExplorer } from './explorer.js';
import { showGame } from './game.js';
import { showSearch } from './search.js';
import { showPlayer } from './player.js';
import { showStats } from './stats.js';

const root = () => document.getElementById('app');

function routeOf() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

function href(path, params) {
  const query = new URLSearchParams(params || {}).toString();
  return `#${path}${query ? `?${query}` : ''}`;
}

// A new state: a history entry, then the page follows the hashchange.
function navigate(path, params) {
  const next = href(path, params);
  if (next === location.hash) render();
  else location.hash = next;
}

// The same page in a new state (a ply stepped): no history entry of its own.
function replace(path, params) {
  history.replaceState(null, '', href(path, params));
}

function render() {
  const { path, params } = routeOf();
  const parts = path.split('/').filter(Boolean);
  const section = parts[0] || 'explorer';
  document.querySelectorAll('[data-nav]').forEach((a) => a.classList.toggle('active', a.dataset.nav === section));
  window.scrollTo(0, 0);
  switch (section) {
    case 'explorer': return showExplorer(root(), params, navigate);
    case 'game': return showGame(root(), parts[1] || '', params, navigate, replace);
    case 'search': return showSearch(root(), params, navigate);
    case 'player': return showPlayer(root(), decodeURIComponent(parts.slice(1).join('/')), navigate);
    case 'stats': return showStats(root());
    default: {
      const p = document.createElement('p');
      p.className = 'error';
      p.textContent = `No page ${path}`;
      root().replaceChildren(p);
    }
  }
}

// /?game=ID opens the game too.
const legacy = new URLSearchParams(location.search).get('game');
if (legacy && !location.hash) history.replaceState(null, '', `/${href(`/game/${legacy}`)}`);

document.getElementById('player-jump').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = document.getElementById('player-jump-name').value.trim();
  if (name) navigate(`/player/${encodeURIComponent(name)}`, {});
});
window.addEventListener('hashchange', render);
render();
