/** A console table's header row: one column header per label. */
export function TableHead({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr className="border-b-2 border-slate-400">
        {labels.map((label) => (
          <th key={label} scope="col" className="px-2 py-2 font-semibold">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
