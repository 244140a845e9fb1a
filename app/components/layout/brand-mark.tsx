import { clinic } from "../../content/clinic.ts";

export function BrandMark({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <circle cx="16" cy="16" r="15" className={inverse ? "fill-white/10" : "fill-brand-700"} />
        <path
          d="M16 5a11 11 0 0 1 0 22M16 5a11 11 0 0 0 0 22M5 16h22"
          fill="none"
          strokeWidth="1.6"
          className="stroke-white"
        />
      </svg>
      <span
        className={`font-serif text-xl leading-none font-semibold tracking-tight whitespace-nowrap ${inverse ? "text-white" : "text-ink"}`}
      >
        {clinic.shortName}
        {/* A real space, so the link's visible text matches its accessible name. */}{" "}
        <span
          className={`ml-0.5 font-sans text-sm font-medium tracking-normal ${inverse ? "text-brand-100" : "text-muted"}`}
        >
          Men&rsquo;s Health
        </span>
      </span>
    </span>
  );
}
