// Browser tests of `pgn-query serve`'s page, in headless Chromium (Debian's, driven by
// puppeteer-core): node browser_test.mjs PGN_QUERY SAMPLE_DB XSS_DB SCREENSHOT_DIR.
// Prints one line per check; exits 1 when one fails.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

const [pgnQuery, sampleDb, xssDb, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
};

// Starts pgn-query serve on a free port; resolves with its origin and process.
function startServer(db) {
  return new Promise((resolve, reject) => {
    const child = spawn(pgnQuery, ['serve', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      const match = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (match) resolve({ origin: `http://127.0.0.1:${match[1]}`, child });
    });
    child.on('exit', (code) => reject(new Error(`pgn-query serve exited with ${code}`)));
  });
}

// A page that records console errors, page errors, dialogs and requests leaving the server.
async function openPage(browser, origin) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) problems.push(`outside request: ${url}`);
  });
  return { page, problems };
}

const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));
const texts = (page, selector) => page.$$eval(selector, (nodes) => nodes.map((n) => n.textContent));

async function clickSquare(page, square) {
  const rect = await page.$(`rect[data-square="${square}"]`);
  await rect.click();
}

async function explorerPlaysByClicking(page, origin) {
  await page.goto(`${origin}/`);
  await page.waitForSelector('table.data td.move');
  const first = await texts(page, 'table.data td.move');
  check(first[0] === 'e4', `explorer at the start lists e4 first (${first.slice(0, 3).join(' ')})`);
  await clickSquare(page, 'e2');
  const targets = await page.$$eval('circle.target', (c) => c.map((n) => n.getAttribute('data-target')).sort());
  check(targets.join(',') === 'e3,e4', `a selected pawn marks its legal targets (${targets.join(',')})`);
  await clickSquare(page, 'e4');
  await page.waitForFunction(() => document.querySelector('.line a.current')?.textContent === 'e4');
  await clickSquare(page, 'e7');
  await clickSquare(page, 'e5');
  await page.waitForFunction(() => document.querySelector('.line a.current')?.textContent === 'e5');
  await page.waitForSelector('table.data td.move');
  const url = await hash(page);
  check(url.includes('play=e2e4,e7e5'), `the URL holds the line (${url})`);
  const moves = await texts(page, 'table.data td.move');
  check(moves[0] === 'Nf3' && moves.includes('Nc3'), `after 1.e4 e5 the table lists Nf3 first (${moves.slice(0, 4).join(' ')})`);
  const name = await page.$eval('#opening-name', (n) => n.textContent);
  check(name.includes("King's Pawn"), `the opening is named (${name})`);
  await page.screenshot({ path: `${shots}/explorer.png` });
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('.line a.current')?.textContent === 'e4');
  check((await hash(page)).includes('play=e2e4') && !(await hash(page)).includes('e7e5'), 'the back button returns to 1.e4');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('.line a.current')?.textContent === 'e5');
}

async function topGameStepsWithArrows(page) {
  await page.waitForSelector('.top-games tr.clickable');
  await page.click('.top-games tr.clickable');
  await page.waitForSelector('.game-moves a.move.current');
  const start = Number(new URLSearchParams((await hash(page)).split('?')[1] || '').get('ply'));
  check(start === 2, `a top game opens at the explorer's position (ply ${start})`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  const ply = Number(new URLSearchParams((await hash(page)).split('?')[1]).get('ply'));
  const current = await page.$$eval('.game-moves a.move', (m) => m.findIndex((n) => n.classList.contains('current')));
  check(ply === 3 && current === 2, `arrow keys step through the plies (ply ${ply}, highlighted move ${current + 1})`);
  const clock = await page.$eval('.ply-info', (n) => n.textContent);
  check(clock.includes('White') && clock.includes(':'), `the clocks show ([%clk]: ${clock})`);
  await page.screenshot({ path: `${shots}/game.png` });
}

async function searchFromTheForm(page, origin) {
  await page.goto(`${origin}/#/search`);
  await page.waitForSelector('form.search-form');
  await page.type('input[name="black"]', 'alireza2003');
  await page.select('select[name="order"]', 'elo');
  await page.click('form.search-form button[type="submit"]');
  await page.waitForSelector('.results table.data tr.clickable');
  const count = await page.$eval('.pager .count', (n) => n.textContent);
  check(/of 58 games/.test(count), `the search finds alireza2003's 58 games as Black (${count})`);
  const url = await hash(page);
  check(url.includes('black=alireza2003') && url.includes('order=elo'), `the search is in the URL (${url})`);
  await page.screenshot({ path: `${shots}/search.png` });
  await page.click('.results tr.clickable');
  await page.waitForSelector('.game-moves');
  check((await hash(page)).startsWith('#/game/'), 'a result row opens the game');
}

async function playerPagePlots(page, origin) {
  await page.goto(`${origin}/#/player/DrNykterstein`);
  await page.waitForSelector('svg.rating-plot path.rating-line');
  const points = await page.$eval('svg.rating-plot path.rating-line', (p) => p.getAttribute('d').split('L').length);
  check(points > 1000, `the rating plot draws the player's games (${points} points)`);
  const bars = await page.$$eval('svg.results-plot rect', (r) => r.length);
  check(bars >= 2, `results by year are bars (${bars})`);
  await page.screenshot({ path: `${shots}/player.png`, fullPage: true });
  await page.goto(`${origin}/#/stats`);
  await page.waitForSelector('.page.stats table.data');
  await page.screenshot({ path: `${shots}/stats.png`, fullPage: true });
}

async function hostileTextShowsAsText(browser, origin) {
  const { page, problems } = await openPage(browser, origin);
  await page.goto(`${origin}/#/search?all=1`);
  await page.waitForSelector('.results table.data tr.clickable');
  const cells = await texts(page, '.results td');
  check(cells.includes('<script>window.__xss=1</script>'), 'a <script> White tag shows as text in the results');
  check(cells.includes('"onmouseover="window.__xss=2" x="'), 'a "onmouseover= Black tag shows as text');
  await page.click('.results tr.clickable');
  await page.waitForSelector('.game-moves .comment');
  await page.hover('.game-moves .comment');
  const comments = await texts(page, '.game-moves .comment, .game-moves .variation');
  check(comments.some((c) => c.includes('<script>window.__xss=4</script>')), 'a comment with <script> shows as text');
  const header = await page.$eval('.game-header', (n) => n.textContent);
  check(header.includes('<img src=x onerror=window.__xss=3>'), 'an Event tag with <img onerror> shows as text');
  await page.$eval('details.tags', (d) => { d.open = true; });
  await page.goto(`${origin}/#/player/${encodeURIComponent('"onmouseover="window.__xss=2" x="')}`);
  await page.waitForSelector('.page.player h1');
  await page.goto(`${origin}/#/explorer?play=e2e4`);
  await page.waitForSelector('.top-games tr.clickable');
  const injected = await page.evaluate(() => ({
    xss: window.__xss,
    handlers: [...document.querySelectorAll('*')].filter((n) => [...n.attributes].some((a) => a.name.startsWith('on'))).length,
    scripts: document.querySelectorAll('script').length,
  }));
  check(injected.xss === undefined && injected.handlers === 0 && injected.scripts === 1,
    `no database text ran or became markup (xss ${injected.xss}, on* attributes ${injected.handlers}, scripts ${injected.scripts})`);
  await page.screenshot({ path: `${shots}/xss.png` });
  check(problems.length === 0, `XSS database: no console errors or outside requests${problems.length ? `: ${problems.join('; ')}` : ''}`);
}

// A pawn reaching the last rank asks for its piece; the knight is taken (a hand-made
// position: White pawn on a7, kings on a1 and h1).
async function promotionAsksForThePiece(page, origin) {
  const fen = '8/P7/8/8/8/8/8/k6K w - - 0 1';
  await page.goto(`${origin}/#/explorer?fen=${encodeURIComponent(fen)}`);
  await page.waitForSelector('rect[data-square="a7"]');
  await page.waitForFunction(() => document.querySelector('input.fen')?.value.startsWith('8/P7'));
  await clickSquare(page, 'a7');
  await clickSquare(page, 'a8');
  const choices = await page.$$eval('rect[data-promote]', (r) => r.map((n) => n.getAttribute('data-promote')).join(''));
  check(choices === 'qrbn', `a promotion offers queen, rook, bishop and knight (${choices})`);
  await page.click('rect[data-promote="n"]');
  await page.waitForFunction(() => document.querySelector('.line a.current')?.textContent === 'a8=N');
  check((await hash(page)).includes('play=a7a8n'), `the knight was played (${await hash(page)})`);
}

const browser = await puppeteer.launch({
  executablePath: process.env.PGNBASE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
});
const servers = [];
try {
  const sample = await startServer(sampleDb);
  servers.push(sample.child);
  const { page, problems } = await openPage(browser, sample.origin);
  await explorerPlaysByClicking(page, sample.origin);
  await topGameStepsWithArrows(page);
  await searchFromTheForm(page, sample.origin);
  await playerPagePlots(page, sample.origin);
  await promotionAsksForThePiece(page, sample.origin);
  check(problems.length === 0, `sample: no console errors or outside requests${problems.length ? `: ${problems.join('; ')}` : ''}`);
  const xss = await startServer(xssDb);
  servers.push(xss.child);
  await hostileTextShowsAsText(browser, xss.origin);
} catch (error) {
  check(false, `the page did not answer as expected: ${error.message}`);
} finally {
  await browser.close();
  for (const child of servers) child.kill();
}
process.exit(failures ? 1 : 0);
