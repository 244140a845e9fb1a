import { pino } from "pino";

/**
 * Structured JSON logs. Registration data never goes into a log line: log ids,
 * counts and statuses only. The redact list is a safety net for mistakes.
 */
export function createLogger(level: string) {
  return pino({
    level,
    base: { service: "clinic-site" },
    redact: {
      paths: [
        "name",
        "email",
        "phone",
        "message",
        "*.name",
        "*.email",
        "*.phone",
        "*.message",
        "req.headers.cookie",
      ],
      censor: "[redacted]",
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
