import { randomInt, randomUUID } from "node:crypto";

import { sql } from "kysely";

import type { Db, Dialect } from "./schema.ts";
import { StorageUnavailableError } from "../../contract/registrations.ts";

let lastId = { ms: -1, sequence: 0 };

/** A UUIDv7 (RFC 9562): a batch's rows touch a few index pages, not one each (decision 092). */
export function timeOrderedId(now: number = Date.now()): string {
  const ms = Math.max(0, Math.trunc(now));
  // Ids made in one millisecond keep the order they were made in (RFC 9562 6.2, method 1): the
  // 12 bits after the version count up from a random start, so an audit trail reads in order.
  const sequence =
    ms === lastId.ms && lastId.sequence < 0xfff ? lastId.sequence + 1 : randomInt(0x800);
  lastId = { ms, sequence };
  const time = ms.toString(16).padStart(12, "0").slice(-12);
  const counter = sequence.toString(16).padStart(3, "0");
  // randomUUID's last 18 characters: the variant and 60 random bits.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter}${randomUUID().slice(18)}`;
}

/** Calls arriving while a batch is written share the next one; a lone call waits no timer. */
export function createGroupCommit<I, O>(
  write: (items: I[]) => Promise<Array<PromiseSettledResult<O>>>,
  options: { maxBatch: number; concurrency: number },
): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let active = 0;
  let scheduled = false;

  const settle = (batch: Waiting[], results: Array<PromiseSettledResult<O>>) => {
    batch.forEach((waiting, i) => {
      const result = results[i];
      if (result?.status === "fulfilled") waiting.resolve(result.value);
      else
        waiting.reject(
          result ? result.reason : new Error("The batch writer returned too few results"),
        );
    });
  };

  const pump = () => {
    scheduled = false;
    while (active < options.concurrency && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      active += 1;
      write(batch.map((w) => w.item))
        .then(
          (results) => settle(batch, results),
          (error: unknown) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          active -= 1;
          schedule();
        });
    }
  };

  // After this turn's I/O callbacks, so every request of the turn joins the batch.
  const schedule = () => {
    if (scheduled || queue.length === 0 || active >= options.concurrency) return;
    scheduled = true;
    setImmediate(pump);
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}

/** SQLite's BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB. */
const SQLITE_UNAVAILABLE = new Set([5, 6, 8, 10, 11, 13, 14, 15, 26]);

const NETWORK_CODES = new Set(
  "ECONNREFUSED ECONNRESET ETIMEDOUT EPIPE EHOSTUNREACH ENETUNREACH ENOTFOUND EAI_AGAIN".split(" "),
);

/** PostgreSQL's classes 08, 53, 58, 57P01-57P03 (shutdown) and 25006 (read-only standby). */
const POSTGRES_UNAVAILABLE = /^(?:(?:08|53|58)[0-9A-Z]{3}|57P[0-9A-Z]{2}|25006)$/;

/** pg and Kysely report lost or closed connections by message only. */
const UNAVAILABLE_MESSAGE =
  /connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|cannot use a pool after calling end|driver has already been destroyed|database is not open/i;

/** The database is unreachable or cannot write, as opposed to the query being wrong. */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "StorageUnavailableError") return true;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number" && SQLITE_UNAVAILABLE.has(errcode & 0xff)) return true;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)))
    return true;
  if (UNAVAILABLE_MESSAGE.test(error.message)) return true;
  // pg's pool can wrap the socket error (AggregateError for multiple addresses).
  if (error instanceof AggregateError) return error.errors.some(isUnavailableError);
  return error.cause !== undefined && error.cause !== error && isUnavailableError(error.cause);
}

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

export function guardAll<T extends { [K in keyof T]: Operation }>(operations: T): T {
  return Object.fromEntries(
    Object.entries<Operation>(operations).map(([name, operation]) => [
      name,
      (...args: never[]) => guardAvailability(() => operation(...args)),
    ]),
  ) as T;
}

/** The smallest write: user_version rewritten as it is (one WAL page), or a transaction id. */
export async function probeWrite(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`select txid_current()`.execute(db);
    return;
  }
  await db.connection().execute(async (conn) => {
    const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(conn);
    const version = Math.trunc(Number(rows[0]?.user_version ?? 0));
    await sql.raw(`pragma user_version = ${version}`).execute(conn);
  });
}

type WriteHealth = { writable: boolean; checkedAt: string };

/** Real writes report; older than `maxAgeMs`, a check runs one shared probe write (073). */
export function createWriteHealth(options: {
  probe: () => Promise<unknown>;
  maxAgeMs: number;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  let last: { writable: boolean; at: number } | undefined;
  let probing: Promise<WriteHealth> | undefined;

  const snapshot = (): WriteHealth => ({
    writable: last?.writable ?? false,
    checkedAt: new Date(last?.at ?? now()).toISOString(),
  });

  /** `error` undefined for success; errors that are not about storage say nothing. */
  function observe(error?: unknown) {
    if (error === undefined) last = { writable: true, at: now() };
    else if (isUnavailableError(error)) last = { writable: false, at: now() };
  }

  async function check(): Promise<WriteHealth> {
    if (last && now() - last.at < options.maxAgeMs) return snapshot();
    probing ??= options
      .probe()
      .then(
        () => observe(),
        (error: unknown) => {
          // A probe is our own statement: any failure means storage did not take it.
          last = { writable: false, at: now() };
          return error;
        },
      )
      .then(snapshot)
      .finally(() => {
        probing = undefined;
      });
    return probing;
  }

  return { observe, check };
}
