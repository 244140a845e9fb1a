import { cn } from "../ui/cn.ts";

const tones = {
  strong: "border-success/30 bg-success/10 text-success",
  medium: "border-brand-200 bg-brand-50 text-brand-800",
  soft: "border-brass/30 bg-brass-soft text-brass",
} as const;

export function LevelBadge({
  label,
  value,
  tone,
  className,
}: {
  /** Read before the value by screen readers, e.g. "Effectiveness". */
  label: string;
  value: string;
  tone: keyof typeof tones;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full border px-3 py-1 text-sm font-semibold whitespace-nowrap",
        tones[tone],
        className,
      )}
    >
      <span className="sr-only">{label}: </span>
      {value}
    </span>
  );
}
