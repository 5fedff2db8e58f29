// Runs one SQL statement with DuckDB (@duckdb/node-api) and prints its rows as
// tab-separated lines: NULL as \N, other values as DuckDB's text form.
// Usage: node duckdb_query.mjs "SQL"
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const reader = await connection.runAndReadAll(process.argv[2]);
const lines = reader.getRows().map(row => row.map(v => (v === null ? '\\N' : String(v))).join('\t'));
process.stdout.write(lines.map(l => l + '\n').join(''));
