import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * PostgreSQL only (docs/decisions/129): `registration_address_seen(address, own_id)`,
 * which the INSERT of new registrations calls for each row it stores. It takes the
 * address's transaction lock, then says whether any other registration of the address
 * is stored. A PL/pgSQL function reads in a snapshot taken after the lock is granted, so
 * a registration committed by whoever held the lock before is seen; one query inside a
 * statement could not do that (its snapshot is taken when the statement starts). The
 * function's query is planned once per connection. SQLite writes one transaction at a
 * time and needs no lock, so it gets nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function registration_address_seen(address text, own_id text) returns boolean
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended(address, 102));
      return exists (select from registrations where lower(email) = address and id <> own_id);
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function registration_address_seen(text, text)`.execute(db);
}
