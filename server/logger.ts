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
        // Registration-shaped objects, wherever they are nested; not `err.message`,
        // which operators need and which never carries form values.
        "registration.name",
        "registration.email",
        "registration.phone",
        "registration.message",
        "values.name",
        "values.email",
        "values.phone",
        "values.message",
        "body",
        "req.headers.cookie",
      ],
      censor: "[redacted]",
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
