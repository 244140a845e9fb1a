import { StorageUnavailableError } from "../../contract/registrations.ts";

/** SQLite primary result codes that mean "the database cannot take writes now". */
const SQLITE_UNAVAILABLE = new Set([
  5, // BUSY: another writer held the lock past busy_timeout
  6, // LOCKED
  8, // READONLY
  10, // IOERR
  11, // CORRUPT
  13, // FULL: disk full
  14, // CANTOPEN
  15, // PROTOCOL
  26, // NOTADB
]);

/** Node socket errors seen when PostgreSQL cannot be reached. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** pg and Kysely report lost or closed connections by message only. */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection error and is not queryable/i,
  /cannot use a pool after calling end/i,
  /driver has already been destroyed/i,
  /database is not open/i,
];

function isPostgresUnavailable(code: string): boolean {
  // 08: connection exception; 53: insufficient resources; 57P01-57P03: shutdown / cannot connect now;
  // 25006: read-only transaction (a standby); 58: system error (I/O).
  return (
    code.startsWith("08") ||
    code.startsWith("53") ||
    code.startsWith("58") ||
    code.startsWith("57P") ||
    code === "25006"
  );
}

/** True when the error says the database is unreachable or cannot write, not that the query was wrong. */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "StorageUnavailableError") return true;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number" && SQLITE_UNAVAILABLE.has(errcode & 0xff)) return true;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && isPostgresUnavailable(code)) return true;
  }
  if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // pg's pool can wrap the socket error (AggregateError for multiple addresses).
  if (error instanceof AggregateError) return error.errors.some(isUnavailableError);
  return error.cause !== undefined && error.cause !== error && isUnavailableError(error.cause);
}

/** Runs a storage call, turning "database unavailable" failures into StorageUnavailableError. */
export async function guardAvailability<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isUnavailableError(error) && !(error instanceof StorageUnavailableError)) {
      throw new StorageUnavailableError("The registration database is unavailable", {
        cause: error,
      });
    }
    throw error;
  }
}

type Operation = (...args: never[]) => Promise<unknown>;

/** Wraps every operation of an object in guardAvailability, once for all of them. */
export function guardAll<T extends { [K in keyof T]: Operation }>(operations: T): T {
  return Object.fromEntries(
    Object.entries<Operation>(operations).map(([name, operation]) => [
      name,
      (...args: never[]) => guardAvailability(() => operation(...args)),
    ]),
  ) as T;
}
