import type { ReactNode } from "react";

export function PageHero({
  eyebrow,
  title,
  children,
}: {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="border-b border-line bg-sand/60">
      <div className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        {eyebrow ? (
          <p className="mb-3 text-sm font-semibold tracking-wider text-brass uppercase">
            {eyebrow}
          </p>
        ) : null}
        <h1 className="text-display">{title}</h1>
        {children ? (
          <div className="mt-5 max-w-3xl text-lg leading-relaxed text-ink-soft">{children}</div>
        ) : null}
      </div>
    </div>
  );
}
