import type { AuditEntry, AuditRecord } from "../../contract/console.ts";
import type { DatabaseHandle } from "../db/schema.ts";
import { timeOrderedId } from "../db/writes.ts";

export const AUDIT_PAGE_SIZE = 50;

/** The console's audit trail (docs/decisions/133): what staff did, and who. */
export function createAuditTrail({ db, now }: DatabaseHandle & { now: () => Date }) {
  const iso = (ms = 0) => new Date(now().getTime() + ms).toISOString();
  return {
    async audit(record: AuditRecord) {
      await db
        .insertInto("audit_trail")
        .values({
          id: timeOrderedId(now().getTime()),
          at: iso(),
          staff_id: record.staffId,
          action: record.action,
          registration_id: record.registrationId ?? null,
          detail: JSON.stringify(record.detail ?? {}),
        })
        .execute();
    },

    /** How many times a staff member did `action` since `msAgo` ago (a limit's count). */
    async countActions(staffId: string, action: string, msAgo: number): Promise<number> {
      const { n } = await db
        .selectFrom("audit_trail")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("staff_id", "=", staffId)
        .where("action", "=", action)
        .where("at", ">", iso(-msAgo))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** One page of the audit trail, newest first (page 1 is the newest). */
    async auditPage(page: number): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
      const rows = await db
        .selectFrom("audit_trail as a")
        .leftJoin("staff as s", "s.id", "a.staff_id")
        .select(["a.at", "a.action", "a.registration_id", "a.detail", "s.email"])
        .orderBy("a.id", "desc")
        .limit(AUDIT_PAGE_SIZE + 1)
        .offset((page - 1) * AUDIT_PAGE_SIZE)
        .execute();
      return {
        hasMore: rows.length > AUDIT_PAGE_SIZE,
        entries: rows.slice(0, AUDIT_PAGE_SIZE).map((r) => ({
          at: r.at,
          staff: r.email ?? null,
          action: r.action,
          registrationId: r.registration_id,
          detail: JSON.parse(r.detail) as AuditEntry["detail"],
        })),
      };
    },

    /** Entries older than the retention period plus 12 months. */
    async purgeAudit(retentionMonths: number) {
      const cutoff = now();
      cutoff.setUTCMonth(cutoff.getUTCMonth() - retentionMonths - 12);
      const audit = await db
        .deleteFrom("audit_trail")
        .where("at", "<", cutoff.toISOString())
        .executeTakeFirst();
      return { cutoff: cutoff.toISOString(), audit: Number(audit.numDeletedRows) };
    },
  };
}
