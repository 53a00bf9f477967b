"use client";

/** A station a menu entry may name, as the menu page lists them (screen order). */
export interface StationChoice {
  id: string;
  name: string;
  isDefault: boolean;
}

/**
 * A menu entry's station: "" is none of its own (`emptyLabel` says where its lines go then),
 * or one of the restaurant's stations. A stored station no longer listed reads as "".
 */
export function StationSelect({
  id,
  form,
  label,
  labelHidden = false,
  value,
  onChange,
  emptyLabel,
  stations,
  className,
}: {
  id: string;
  /** The form it belongs to, when it sits outside it (a table row's cell). */
  form?: string;
  label: string;
  labelHidden?: boolean;
  value: string | null;
  onChange: (v: string) => void;
  emptyLabel: string;
  stations: readonly StationChoice[];
  className: string;
}) {
  const known = value !== null && stations.some((s) => s.id === value) ? value : "";
  return (
    <>
      <label htmlFor={id} className={labelHidden ? "sr-only" : "text-base font-semibold"}>
        {label}
      </label>
      <select id={id} form={form} name="stationId" value={known} onChange={(e) => onChange(e.target.value)} className={className}>
        <option value="">{emptyLabel}</option>
        {stations.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </>
  );
}

/** Where an entry without a station of its own goes: its category's station, else the default. */
export function stationName(stations: readonly StationChoice[], id: string | null): string {
  return (stations.find((s) => s.id === id) ?? stations.find((s) => s.isDefault) ?? stations[0])?.name ?? "";
}
