// Runs SQL statements with DuckDB (@duckdb/node-api) and prints their rows as
// tab-separated lines: NULL as \N, other values as DuckDB's text form.
// Usage: node duckdb_query.mjs "SQL" ["SQL" ...]; with several statements, each one's
// rows are followed by a line holding only the group separator character (\x1d). With
// PGNBASE_DUCKDB_TIMING=1 the queries' own time (without node's start and DuckDB's
// set-up) goes to stderr as "duckdb: N ms".
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const statements = process.argv.slice(2);
const started = process.hrtime.bigint();
let out = '';
for (const sql of statements) {
  const reader = await connection.runAndReadAll(sql);
  const lines = reader.getRows().map(row => row.map(v => (v === null ? '\\N' : String(v))).join('\t'));
  out += lines.map(l => l + '\n').join('');
  if (statements.length > 1) out += '\x1d\n';
}
if (process.env.PGNBASE_DUCKDB_TIMING === '1') {
  process.stderr.write(`duckdb: ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms\n`);
}
process.stdout.write(out);
