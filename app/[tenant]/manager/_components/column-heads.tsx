/** The header row of a console table: one column heading per label. */
export function ColumnHeads({ labels }: { labels: readonly string[] }) {
  return (
    <thead className="border-b-2 border-slate-300 text-base text-slate-600">
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className="px-2 py-2 font-semibold">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
