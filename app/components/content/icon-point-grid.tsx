import type { IconPoint } from "../../content/content-types.ts";
import { cn } from "../ui/cn.ts";

export function IconPointGrid({ points, columns = 3 }: { points: IconPoint[]; columns?: 2 | 3 }) {
  return (
    <ul className={cn("grid gap-5 sm:grid-cols-2", columns === 3 && "lg:grid-cols-3")}>
      {points.map(({ icon: Icon, title, body }) => (
        <li key={title} className="rounded-card border border-line bg-surface p-6 shadow-card">
          <span className="inline-flex size-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <h3 className="mt-4 text-xl">{title}</h3>
          <p className="mt-2 leading-relaxed text-ink-soft">{body}</p>
        </li>
      ))}
    </ul>
  );
}
