import { type DestinationStream, pino } from "pino";

/**
 * The server's and the CLI's one logger: JSON lines. Registration data never goes into a
 * log line, only ids, counts and statuses; the redaction list is a safety net for mistakes.
 */
export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
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
    },
    destination,
  );
}

export type Logger = ReturnType<typeof createLogger>;
