// pgn-query serve under load: CLIENTS concurrent clients on the loopback for SECONDS,
// each asking in turn for the explorer at a position of a random common line and for a
// random game. Prints p50/p99 per endpoint, requests/s, and the server's RSS (start,
// peak, end). Usage: node bench/serve_bench.mjs PGN_QUERY DB [SECONDS=30] [CLIENTS=8]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [pgnQuery, db, seconds = '30', clients = '8'] = process.argv.slice(2);
const server = spawn(pgnQuery, ['serve', db, '--port', '0', '--threads', clients], { stdio: ['ignore', 'pipe', 'inherit'] });
const origin = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;

// Lines people explore: the explorer is asked at every prefix of one.
const lines = [
  'e2e4,e7e5,g1f3,b8c6,f1b5,a7a6', 'e2e4,c7c5,g1f3,d7d6,d2d4,c5d4', 'd2d4,g8f6,c2c4,e7e6,b1c3,f8b4',
  'd2d4,d7d5,c2c4,c7c6,g1f3,g8f6', 'e2e4,e7e6,d2d4,d7d5,b1c3,g8f6', 'c2c4,e7e5,b1c3,g8f6,g1f3,b8c6',
  'g1f3,d7d5,g2g3,g8f6,f1g2,c7c6', 'e2e4,c7c6,d2d4,d7d5,e4e5,c8f5',
];
const stats = await (await fetch(`${origin}/api/stats`)).json();
const games = stats.games;
const times = { explorer: [], game: [] };
let errors = 0;
const until = Date.now() + Number(seconds) * 1000;
const rssStart = rss();
let rssPeak = rssStart;
const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rss()); }, 500);

async function client(index) {
  let n = index;
  while (Date.now() < until) {
    n += 1;
    const line = lines[n % lines.length].split(',');
    const play = line.slice(0, n % (line.length + 1)).join(',');
    const kind = n % 2 ? 'explorer' : 'game';
    const url = kind === 'explorer' ? `${origin}/api/explorer?play=${play}` : `${origin}/api/game/${1 + ((n * 7919) % games)}`;
    const start = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    times[kind].push(performance.now() - start);
    if (!response.ok) errors += 1;
  }
}
await Promise.all(Array.from({ length: Number(clients) }, (_, i) => client(i)));
clearInterval(sampler);
const rssEnd = rss();
server.kill();
const pct = (list, p) => { const s = [...list].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
const total = times.explorer.length + times.game.length;
console.log(`database ${db}: ${games} games; ${clients} clients, ${seconds} s`);
for (const kind of ['explorer', 'game'])
  console.log(`${kind.padEnd(8)} ${String(times[kind].length).padStart(7)} requests  p50 ${pct(times[kind], 50).toFixed(2)} ms  p99 ${pct(times[kind], 99).toFixed(2)} ms`);
console.log(`throughput ${(total / Number(seconds)).toFixed(0)} requests/s, ${errors} errors`);
console.log(`server RSS ${rssStart.toFixed(0)} MiB at start, ${rssPeak.toFixed(0)} MiB peak, ${rssEnd.toFixed(0)} MiB at the end`);
