const tones = {
  strong: "border-success/30 bg-success/10 text-success",
  medium: "border-brand-200 bg-brand-50 text-brand-800",
  soft: "border-brass/30 bg-brass-soft text-brass",
} as const;

export function LevelBadge({
  label,
  value,
  tone,
}: {
  label: string;
  value: string;
  tone: keyof typeof tones;
}) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-3 py-1 text-sm font-semibold whitespace-nowrap ${tones[tone]}`}
    >
      <span className="sr-only">{label}: </span>
      {value}
    </span>
  );
}
