/**
 * What the server's output must look like whatever was thrown at it: every line a
 * JSON log line (no plain-text stack trace), and no request answered with a server
 * error, except a deliberate 503 when `allow503` is set (storage unavailable).
 */
export function logProblems(
  output: readonly string[],
  options: { allow503?: boolean } = {},
): { notJson: string[]; serverErrors: string[] } {
  const notJson = output.filter((line) => {
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
  const serverErrors = output.filter((line) => {
    const status = /"status":(5\d\d)\b/.exec(line)?.[1];
    return status !== undefined && !(options.allow503 && status === "503");
  });
  return { notJson, serverErrors };
}
