import { CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  type AddressHistory,
  addressHistories,
  CONFIRMATION_LIMITS,
  isUnsubscribed,
  mayQueueConfirmation,
} from "./register.ts";
import type { NewRegistration } from "../../contract/registrations.ts";
import { backends, postgresBackend } from "../../tests/support/storage-backends.ts";
import { createDatabase, migrate } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { openServices, type ServicesOptions } from "../services.ts";
import { confirmToken, loadLinkKey, unsubscribeToken } from "../shared/links.ts";

const logger = createLogger("silent");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const start = new Date("2026-11-25T09:00:00.000Z");
const at = (ms: number) => new Date(start.getTime() + ms).toISOString();

describe("mayQueueConfirmation", () => {
  const history = (over: Partial<AddressHistory> = {}): AddressHistory => ({
    lastUnsubscribedAt: null,
    lastConfirmedAt: null,
    confirmations: [],
    ...over,
  });
  const sent = (ago: number, status: "pending" | "delivered" = "delivered") => ({
    createdAt: at(-ago),
    status,
  });
  const fullDay = Array.from({ length: CONFIRMATION_LIMITS.perDay }, (_, i) =>
    sent((2 + i) * HOUR),
  );
  const off = { lastUnsubscribedAt: at(-HOUR * 48), lastConfirmedAt: at(-HOUR * 72) };
  const back = { ...off, lastConfirmedAt: at(-HOUR * 24) };

  it.each<[string, Partial<AddressHistory>, boolean]>([
    ["the first", {}, true],
    ["none while one waits", { confirmations: [sent(5 * HOUR, "pending")] }, false],
    ["none within the gap", { confirmations: [sent(59 * MINUTE)] }, false],
    ["one after the gap", { confirmations: [sent(61 * MINUTE)] }, true],
    [`none after ${CONFIRMATION_LIMITS.perDay} in 24 hours`, { confirmations: fullDay }, false],
    [
      "one once the oldest of those is 25 hours old",
      { confirmations: fullDay.map((c, i) => (i === 0 ? sent(25 * HOUR) : c)) },
      true,
    ],
    ["none to an unsubscribed address", off, false],
    ["one once a registration of it is confirmed after the unsubscribe", back, true],
  ])("allows %s", (_, over, allowed) => {
    expect(mayQueueConfirmation(history(over), start)).toBe(allowed);
  });

  it("counts an address unsubscribed until a registration of it is confirmed after the unsubscribe", () => {
    expect(isUnsubscribed(history(off))).toBe(true);
    expect(isUnsubscribed(history(back))).toBe(false);
  });
});

let counter = 0;
function registration(email: string, over: Partial<NewRegistration> = {}): NewRegistration {
  counter += 1;
  return {
    name: `Person ${counter}`,
    email,
    phone: null,
    message: null,
    clientTimestamp: null,
    idempotencyKey: `limits-${counter}-${Math.random()}`,
    consent: { version: "2026-11-23", wantsUpdates: false },
    ...over,
  };
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`per-address limits on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    let clock = start;
    /** Each registration committed in a transaction of its own, eight at a time. */
    const oneEach = { maxBatch: 1, writeConcurrency: 8 };

    async function setUp(options: ServicesOptions = {}) {
      const p = await backend.fresh();
      cleanups.push(p.drop);
      const storage = await openServices(p.env, logger, { now: () => clock, ...options });
      cleanups.push(() => storage.close());
      const side = createDatabase(p.env, logger);
      cleanups.push(() => side.db.destroy());
      const key = await loadLinkKey(side.db);
      /** Confirmation emails queued, per lower-cased address. */
      const confirmations = async (email: string) => {
        const { rows } = await sql<{ n: number | string }>`
          select count(*) as n from outbox o join registrations r on r.id = o.registration_id
          where o.topic = 'confirmation' and lower(r.email) = ${email.toLowerCase()}`.execute(
          side.db,
        );
        return Number(rows[0]?.n);
      };
      /** The mail worker is not started: mark what is queued as sent. */
      const markSent = () => sql`update outbox set status = 'delivered'`.execute(side.db);
      /** `n` registrations at once, the i-th of `email(i)`. */
      const registerMany = (n: number, email: (i: number) => string) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            storage.registrations.register(registration(email(i))),
          ),
        );
      const { registrations, admin } = storage;
      return { registrations, admin, key, confirmations, markSent, registerMany, side: side.db };
    }

    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
      clock = start;
    });

    it("stores 30 registrations of one address arriving together and queues one confirmation", async () => {
      const { admin, confirmations, registerMany } = await setUp();
      const results = await registerMany(30, (i) =>
        i % 2 ? "Victim@Example.com" : "victim@example.com",
      );
      expect(results.every((r) => r.kind === "created")).toBe(true);
      expect(await admin.count()).toBe(30);
      expect(await confirmations("victim@example.com")).toBe(1);
    });

    it("holds when each registration commits on its own, several at once", async () => {
      const { confirmations, registerMany } = await setUp(oneEach);
      await registerMany(60, () => "target@example.com");
      expect(await confirmations("target@example.com")).toBe(1);
    });

    // PostgreSQL only: SQLite writes one transaction at a time, so none can wait on another.
    if (backend.name === "postgres")
      it("makes transactions storing one address wait for each other until commit", async () => {
        // Eight transactions of one registration each. Another connection holds a lock
        // that stops every INSERT into the outbox until all eight are waiting, so none can
        // commit before the others have read the address's history. Without the address
        // lock all eight would find nothing queued and each queue a confirmation.
        const { confirmations, registerMany, side } = await setUp(oneEach);
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        let holderPid = 0;
        const holding = side.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          holderPid = rows[0]?.pid ?? 0;
          await sql`lock table outbox in share mode`.execute(trx);
          await released;
        });
        while (holderPid === 0) await new Promise((r) => setTimeout(r, 10));
        const stored = registerMany(8, () => "target@example.com");
        // Wait until all eight are held up, directly by the holder or behind one that is.
        const heldUp = async () => {
          const { rows } = await sql<{ pid: number; blockers: number[] }>`
            select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity`.execute(side);
          const behind = new Set([holderPid]);
          for (let size = 0; size < behind.size;) {
            size = behind.size;
            for (const { pid, blockers } of rows)
              if (blockers.some((b) => behind.has(b))) behind.add(pid);
          }
          expect(behind.size - 1, "transactions held up").toBeGreaterThanOrEqual(8);
        };
        try {
          await vi.waitFor(heldUp, { timeout: 10_000, interval: 20 });
        } finally {
          release();
        }
        await holding;
        await stored;
        expect(await confirmations("target@example.com")).toBe(1);
      });

    it(`re-sends after ${CONFIRMATION_LIMITS.minGapMinutes} minutes once the last went, at most ${CONFIRMATION_LIMITS.perDay} a day`, async () => {
      const { registrations, confirmations, markSent } = await setUp();
      // [hours after the first, whether what was queued went first, confirmations queued by then]
      const steps: Array<[number, boolean, number?, string?]> = [
        [0, false],
        [2, false, 1, "the first is still waiting to go"],
        [2.5, true, 2, "sent, and more than the gap since it was queued"],
        [3, true, 2, "within the gap of the second"],
        [4, false],
        [6, true, 3, "the fourth in 24 hours"],
        [25, false, 4, "the first has aged out of the day"],
      ];
      for (const [hours, wentFirst, expected, why] of steps) {
        if (wentFirst) await markSent();
        clock = new Date(at(hours * HOUR));
        await registrations.register(registration("sam@example.com"));
        if (expected !== undefined)
          expect(await confirmations("sam@example.com"), why).toBe(expected);
      }
      // Other addresses are not held back by this one.
      await registrations.register(registration("kim@example.com"));
      expect(await confirmations("kim@example.com")).toBe(1);
    });

    it("mails an unsubscribed address nothing until that person joins again from the unsubscribe link", async () => {
      const { admin, registrations, key, confirmations, markSent } = await setUp();
      const first = await registrations.register(registration("alex@example.com"));
      await markSent();
      const stop = unsubscribeToken(key, first.registration.id);
      expect((await registrations.unsubscribe(stop)).kind).toBe("unsubscribed");

      clock = new Date(at(3 * HOUR));
      const again = await registrations.register(registration("ALEX@example.com"));
      expect(again.kind).toBe("created"); // stored and acknowledged as usual...
      expect(await confirmations("alex@example.com")).toBe(1); // ...but nothing mailed

      clock = new Date(at(4 * HOUR));
      expect(await registrations.rejoin(stop)).toEqual({ kind: "rejoined" });
      expect(await registrations.rejoin(stop)).toEqual({ kind: "rejoined" });
      const shown = await admin.findByEmail("alex@example.com");
      // The newest registration is confirmed and on the list; the first keeps its record.
      expect(shown.map((r) => [r.confirmedAt, r.unsubscribedAt])).toEqual([
        [null, start.toISOString()],
        [at(4 * HOUR), null],
      ]);
      // On the list again, a new registration may be confirmed by email as usual.
      clock = new Date(at(6 * HOUR));
      await registrations.register(registration("alex@example.com"));
      expect(await confirmations("alex@example.com")).toBe(2);
    });

    it("looking at a confirm link changes nothing; the press confirms, and brings back an unsubscribed registration", async () => {
      const { admin, registrations, key } = await setUp();
      const { registration: r } = await registrations.register(registration("lee@example.com"));
      const token = confirmToken(key, r.id, start);
      const check = () => registrations.checkConfirm(token);
      for (let i = 0; i < 3; i++)
        expect(await check()).toEqual({ kind: "valid", alreadyConfirmed: false });
      expect((await admin.findByEmail("lee@example.com"))[0]?.confirmedAt).toBeNull();
      expect(await registrations.checkConfirm("forged")).toEqual({ kind: "invalid" });

      const unsubscribed = await registrations.unsubscribe(unsubscribeToken(key, r.id));
      expect(unsubscribed).toMatchObject({ kind: "unsubscribed" });
      clock = new Date(at(HOUR));
      expect(await registrations.confirm(token)).toEqual({ kind: "confirmed", firstTime: true });
      expect(await check()).toEqual({ kind: "valid", alreadyConfirmed: true });
      const [shown] = await admin.findByEmail("lee@example.com");
      expect([shown?.confirmedAt, shown?.unsubscribedAt]).toEqual([at(HOUR), null]);
    });
  });
}

/** Every node of a PostgreSQL plan in EXPLAIN (FORMAT JSON), depth first. */
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
};
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

describe.runIf(postgresBackend.enabled)(
  "addressHistories on never-analysed PostgreSQL tables",
  () => {
    // 20,000 registrations: addresses person0..person9999 have two each (n and n + 10,000,
    // the second written in capitals). Every registration has a spreadsheet row in the
    // outbox and four in five a confirmation email: 36,000 outbox rows.
    const total = 20_000;
    const minute = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * MINUTE).toISOString();
    const id = (n: number) => `reg-${String(n).padStart(5, "0")}`;
    /** What the inserts below store for registration n, written again in JavaScript. */
    const stored = (n: number) => ({
      confirmedAt: n % 3 === 0 ? minute(n) : null,
      unsubscribedAt: n % 4 === 0 ? minute(n + 1) : null,
      confirmation:
        n % 5 === 0
          ? null
          : {
              createdAt: minute(n),
              status: n % 2 === 0 ? ("delivered" as const) : ("pending" as const),
            },
    });
    /** The same timestamps in SQL: ISO 8601 UTC text, as the application writes them. */
    const stamp = (n: string) =>
      sql.raw(
        `to_char(timestamp '2026-11-01' + (${n}) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      );

    it("looks each address up through its indexes, without statistics, and reads the right history", async () => {
      const place = await postgresBackend.fresh();
      const pool = new pg.Pool({ connectionString: place.env.DATABASE_URL, max: 2 });
      /** The statements the code under test sends, to be explained afterwards. */
      let sent: CompiledQuery[] = [];
      const db = new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        log: (event) => {
          if (event.level === "query") sent.push(event.query);
        },
      });
      try {
        // Migrated through the application's database, whose catalog listing stays in its own
        // schema: Kysely's plain dialect reads every schema's, and fails while another test
        // run drops one ("schema ... does not exist").
        const app = createDatabase(place.env, logger);
        await migrate(app.db, "postgres").finally(() => app.db.destroy());
        // Keep the tables as a new deployment has them while the test runs: no autovacuum
        // pass may analyse them in between.
        await sql`alter table registrations set (autovacuum_enabled = false)`.execute(db);
        await sql`alter table outbox set (autovacuum_enabled = false)`.execute(db);
        await sql`
          insert into registrations
            (id, name, email, received_at, idempotency_key, consent_version, consent_at,
             confirmed_at, unsubscribed_at)
          select 'reg-' || lpad(n::text, 5, '0'), 'Person ' || n,
            case when n > 10000 then 'Person' || n % 10000 || '@Example.com'
                 else 'person' || n % 10000 || '@example.com' end,
            ${stamp("n")}, 'history-' || n, '2026-11-23', ${stamp("n")},
            case when n % 3 = 0 then ${stamp("n")} end,
            case when n % 4 = 0 then ${stamp("n + 1")} end
          from generate_series(1, ${total}) as n`.execute(db);
        await sql`
          insert into outbox (id, registration_id, status, next_attempt_at, created_at, kind, topic)
          select 'sheet-' || n, 'reg-' || lpad(n::text, 5, '0'), 'delivered', ${stamp("n")},
            ${stamp("n")}, 'spreadsheet', 'registration'
          from generate_series(1, ${total}) as n
          union all
          select 'mail-' || n, 'reg-' || lpad(n::text, 5, '0'),
            case when n % 2 = 0 then 'delivered' else 'pending' end, ${stamp("n")},
            ${stamp("n")}, 'mail', 'confirmation'
          from generate_series(1, ${total}) as n where n % 5 <> 0`.execute(db);
        /** pg_class.reltuples stays -1 until a table is first analysed or vacuumed. */
        const neverAnalysed = { outbox: -1, registrations: -1 };
        const reltuples = async () => {
          const { rows } = await sql<{ relname: string; reltuples: number }>`
            select relname, reltuples from pg_class
            where oid in ('registrations'::regclass, 'outbox'::regclass) order by relname`.execute(
            db,
          );
          return Object.fromEntries(rows.map((r) => [r.relname, Number(r.reltuples)]));
        };
        expect(await reltuples()).toEqual(neverAnalysed);

        // Fifty addresses, as in a busy batch (over this many, a plain join without
        // statistics scans registrations whole), one never registered and one repeated;
        // the second registration of person1 stands for the batch's own and is left out.
        const keys = [
          ...Array.from({ length: 50 }, (_, i) => `person${i + 1}@example.com`),
          "nobody@example.com",
          "person7@example.com",
        ];
        const except = [id(10_001)];

        /**
         * What this transaction has read so far, per table. pg_stat_xact_user_tables
         * counts the current transaction of this connection, as it goes.
         */
        const reads = async (trx: Kysely<Database>) => {
          const { rows } = await sql<{ relname: string; seq: string; fetched: string }>`
            select relname, seq_scan as seq, idx_tup_fetch as fetched
            from pg_stat_xact_user_tables
            where relid in ('registrations'::regclass, 'outbox'::regclass)`.execute(trx);
          return Object.fromEntries(
            rows.map((r) => [r.relname, { seq: Number(r.seq), fetched: Number(r.fetched) }]),
          );
        };
        const { histories, query, read } = await db.transaction().execute(async (trx) => {
          const before = await reads(trx);
          sent = [];
          const histories = await addressHistories(trx, "postgres", keys, except);
          const [query, ...more] = sent;
          expect(more, "one query").toEqual([]);
          const after = await reads(trx);
          const read = (table: string) => ({
            seq: (after[table]?.seq ?? NaN) - (before[table]?.seq ?? NaN),
            fetched: (after[table]?.fetched ?? NaN) - (before[table]?.fetched ?? NaN),
          });
          return { histories, query, read };
        });

        // What ran: no sequential scan of either table, and no more rows fetched than the
        // fifty addresses own (their 100 registrations, two outbox rows at most each).
        for (const [table, most] of Object.entries({ registrations: 100, outbox: 200 })) {
          const { seq, fetched } = read(table);
          expect(seq, `sequential scans of ${table}`).toBe(0);
          expect(fetched, `${table} rows fetched`).toBeGreaterThan(0);
          expect(fetched, `${table} rows fetched`).toBeLessThanOrEqual(most);
        }

        // How it ran: the same statement, explained, reaches each table only through the
        // index for its look-up. (Rows fetched cannot show an index range that was read and
        // thrown away, as when outbox_kind_due_idx, which reaches every mail row, is ANDed
        // with the registration_id index.)
        if (!query) throw new Error("addressHistories sent no query");
        const explained = await db.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
        );
        const root = explained.rows[0]?.["QUERY PLAN"][0]?.Plan;
        if (!root) throw new Error("no plan");
        const scans = planNodes(root)
          .filter((node) => node["Relation Name"] ?? node["Index Name"])
          .map((node) => `${node["Node Type"]} ${node["Relation Name"] ?? node["Index Name"]}`);
        expect(
          scans.filter((scan) => scan.startsWith("Seq Scan")),
          "sequential scans",
        ).toEqual([]);
        expect(
          new Set(planNodes(root).flatMap((node) => node["Index Name"] ?? [])),
          scans.join("; "),
        ).toEqual(new Set(["registrations_email_lower_idx", "outbox_registration_id_idx"]));

        const latest = (values: Array<string | null>) =>
          values
            .filter((v) => v !== null)
            .sort()
            .at(-1) ?? null;
        const expected = new Map<string, AddressHistory>();
        for (let a = 1; a <= 50; a++) {
          const own = [a, a + 10_000].filter((n) => !except.includes(id(n))).map(stored);
          expected.set(`person${a}@example.com`, {
            lastUnsubscribedAt: latest(own.map((s) => s.unsubscribedAt)),
            lastConfirmedAt: latest(own.map((s) => s.confirmedAt)),
            confirmations: own.flatMap((s) => (s.confirmation ? [s.confirmation] : [])),
          });
        }
        // The order of an address's confirmations is not part of the answer.
        for (const h of histories.values())
          h.confirmations.sort((x, y) => x.createdAt.localeCompare(y.createdAt));
        expect(histories).toEqual(expected);
        expect(await reltuples(), "still never analysed").toEqual(neverAnalysed);
      } finally {
        await db.destroy();
        await place.drop();
      }
    });
  },
);
