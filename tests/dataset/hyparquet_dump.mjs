// Prints what hyparquet (a pure JavaScript Parquet reader) reads from Parquet files, as
// lines a test compares: per file a line "file PATH", the schema, the row groups'
// statistics and sorting columns, then every row. Integers print in decimal, byte
// arrays that are not text in hex, NULL as \N, and in text a backslash, newline or tab
// as \\, \n, \t. Usage: node hyparquet_dump.mjs [--no-rows] FILE... (--no-rows: the
// metadata only, with each row group's total_byte_size on a line "row_group_bytes I N").
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const show = v => {
  if (v === null || v === undefined) return '\\N';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return String(v).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
};

const args = process.argv.slice(2);
const withRows = args[0] !== '--no-rows';
const out = [];
for (const path of withRows ? args : args.slice(1)) {
  out.push(`file ${path}`);
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  out.push(`rows ${metadata.num_rows}`);
  out.push(`row_groups ${metadata.row_groups.length}`);
  for (const e of metadata.schema.slice(1)) {
    out.push(`column ${e.name} ${e.type} ${e.repetition_type} ${e.converted_type ?? '-'} ` +
             `${e.logical_type ? JSON.stringify(e.logical_type) : '-'}`);
  }
  metadata.row_groups.forEach((g, i) => {
    out.push(`row_group ${i} ${g.num_rows} sorted_by ${(g.sorting_columns ?? []).map(s => s.column_idx).join(',') || '-'}`);
    if (!withRows) out.push(`row_group_bytes ${i} ${g.total_byte_size}`);
    for (const c of g.columns) {
      const m = c.meta_data;
      const s = m.statistics ?? {};
      out.push(`stats ${i} ${m.path_in_schema.join('.')} ${m.codec} ${m.encodings.join(',')} ` +
               `${show(s.null_count)} ${show(s.min_value)} ${show(s.max_value)}`);
    }
  });
  if (!withRows) continue;
  const rows = await parquetReadObjects({ file, compressors, utf8: false });
  const names = metadata.schema.slice(1).map(e => e.name);
  for (const r of rows) out.push('row ' + names.map(n => show(r[n])).join('\t'));
}
process.stdout.write(out.map(l => l + '\n').join(''));
