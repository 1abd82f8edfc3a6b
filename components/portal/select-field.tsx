import type { ReactNode } from 'react';

/** A label around a select of `options`, in their order; `any` first offers no value (a filter's "all"). */
export function SelectField({
  label,
  name,
  id,
  defaultValue,
  options,
  any,
}: {
  label: ReactNode;
  name: string;
  id?: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
  any?: string;
}) {
  return (
    <label>
      {label}
      <select name={name} id={id} defaultValue={defaultValue}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
