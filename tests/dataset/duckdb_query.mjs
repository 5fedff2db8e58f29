// Runs one SQL statement with DuckDB (@duckdb/node-api) and prints its rows as
// tab-separated lines: NULL as \N, other values as DuckDB's text form.
// Usage: node duckdb_query.mjs "SQL"; with PGNBASE_DUCKDB_TIMING=1 the query's own time
// (without node's start and DuckDB's set-up) goes to stderr as "duckdb: N ms".
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const started = process.hrtime.bigint();
const reader = await connection.runAndReadAll(process.argv[2]);
if (process.env.PGNBASE_DUCKDB_TIMING === '1') {
  process.stderr.write(`duckdb: ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms\n`);
}
const lines = reader.getRows().map(row => row.map(v => (v === null ? '\\N' : String(v))).join('\t'));
process.stdout.write(lines.map(l => l + '\n').join(''));
