import { type DestinationStream, pino } from "pino";

const FIELDS = ["name", "email", "phone", "message"];

/** Registration data never goes into a log line; the redaction list is a safety net. */
export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
      level,
      base: { service: "clinic-site" },
      redact: {
        // Not `err.message`, which operators need and which never carries form values.
        paths: [
          ...FIELDS,
          ...FIELDS.flatMap((field) => [`registration.${field}`, `values.${field}`]),
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

/**
 * node:sqlite's ExperimentalWarning (accepted, decision 030) would break the JSON log stream.
 * Call it before node:sqlite loads, in each thread that loads it.
 */
export function quietSqliteWarning() {
  const printers = process.listeners("warning");
  if (printers.length !== 1) return;
  const [print] = printers;
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && warning.message.includes("SQLite")) return;
    print?.(warning);
  });
}
