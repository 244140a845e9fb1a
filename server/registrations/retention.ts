/**
 * The instant `months` calendar months before `from`, in UTC. A day that does
 * not exist in the target month clamps to its last day (31 May - 3 months = 28/29 Feb).
 */
export function monthsBefore(from: Date, months: number): Date {
  const first = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - months, 1));
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

export type Age = { amount: number; unit: "months" | "days" };

/** Parses "24m", "24" (months) or "30d" (days), as `purge --older-than` takes them. */
export function parseAge(text: string): Age {
  const match = /^(\d+)\s*(m|d)?$/i.exec(text.trim());
  if (!match?.[1])
    throw new Error(
      `Cannot read the age "${text}": use a number of months like 24m, or days like 30d`,
    );
  const amount = Number(match[1]);
  if (amount < 1) throw new Error("The age must be at least 1");
  return { amount, unit: match[2]?.toLowerCase() === "d" ? "days" : "months" };
}

/** The cut-off instant: records received before it are older than `age`. */
export function cutoffFor(age: Age, now: Date): Date {
  if (age.unit === "days") return new Date(now.getTime() - age.amount * 86_400_000);
  return monthsBefore(now, age.amount);
}
