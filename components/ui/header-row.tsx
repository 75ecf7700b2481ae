/** A column's heading: its label, and the width from which it shows when phones leave it out. */
export type Column = string | { label: string; from: "sm" | "md" };

// Whole class names, so Tailwind finds them in the source.
const CLASS = {
  all: "py-1 pr-3",
  sm: "hidden py-1 pr-3 sm:table-cell",
  md: "hidden py-1 pr-3 md:table-cell",
} as const;

/** A data table's heading row: one column header per label, as every dashboard table has it. */
export function HeaderRow({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { label, from } =
            typeof column === "string" ? { label: column, from: "all" as const } : column;
          return (
            <th key={label} scope="col" className={CLASS[from]}>
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
