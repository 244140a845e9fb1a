import { type ComponentProps, type ReactNode, useId } from "react";

export type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

export function Field({
  label,
  hint,
  error,
  optionalText,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  optionalText?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-base font-semibold text-ink">
        {label}
        {optionalText ? (
          <span className="ml-1.5 font-normal text-muted">{optionalText}</span>
        ) : null}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const controlStyles =
  "w-full rounded-control border border-line bg-surface px-3.5 text-base text-ink shadow-[inset_0_1px_2px_rgb(21_37_44/0.05)] transition-colors placeholder:text-muted hover:border-ink-soft/50 focus-visible:border-brand-600 aria-invalid:border-danger aria-invalid:bg-danger/[0.03]";

export function Input(props: ComponentProps<"input">) {
  return <input className={`${controlStyles} min-h-12 py-2.5`} {...props} />;
}

export function Textarea(props: ComponentProps<"textarea">) {
  return (
    <textarea className={`${controlStyles} min-h-32 resize-y py-3 leading-relaxed`} {...props} />
  );
}
