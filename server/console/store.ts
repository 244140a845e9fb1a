import { createAuditTrail } from "./audit.ts";
import { createPasskeyStore } from "./passkey-store.ts";
import { createSessionStore } from "./session.ts";
import { createStaffRecords } from "./staff.ts";
import type { DatabaseHandle } from "../db/schema.ts";
import { guardAll } from "../db/writes.ts";

/**
 * The staff console's storage (docs/decisions/133): staff, invites and changes waiting
 * (staff.ts), passkeys and challenges (passkey-store.ts), sessions (session.ts) and the
 * audit trail (audit.ts). Tokens are stored only as their SHA-256. Every call is wrapped in
 * guardAvailability, like the registration admin.
 */
export function createStaffStore(handle: DatabaseHandle & { now: () => Date }) {
  const { purgeInvites, ...staff } = createStaffRecords(handle);
  const { purgeChallenges, ...passkeys } = createPasskeyStore(handle);
  const { purgeSessions, ...sessions } = createSessionStore(handle);
  const { purgeAudit, ...trail } = createAuditTrail(handle);
  return guardAll({
    ...staff,
    ...passkeys,
    ...sessions,
    ...trail,
    /**
     * The daily purge's part: audit entries older than the retention period plus 12
     * months, and sessions, invites and challenges that can no longer be used.
     */
    async purge(retentionMonths: number) {
      const purged = await purgeAudit(retentionMonths);
      await purgeSessions();
      await purgeInvites();
      await purgeChallenges();
      return purged;
    },
  });
}

export type StaffStore = ReturnType<typeof createStaffStore>;
