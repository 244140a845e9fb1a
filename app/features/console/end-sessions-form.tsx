import { Button } from "../../components/ui/button.tsx";

/**
 * A manager ends every session of a staff member (docs/decisions/178): wherever they are
 * signed in, their next request goes to the sign-in page. Their passkeys stay.
 */
export function EndSessionsForm({ id, email }: { id: string; email: string }) {
  return (
    <form method="post">
      <input type="hidden" name="intent" value="end-sessions" />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="secondary" size="sm">
        End sessions <span className="sr-only">of {email}</span>
      </Button>
    </form>
  );
}

/** What the staff page's action answers to an "end-sessions" post. */
export type SessionsEnded = { sessionsEnded: number };

export function SessionsEndedNotice({ outcome }: { outcome: unknown }) {
  if (typeof outcome !== "object" || outcome === null || !("sessionsEnded" in outcome)) return null;
  const { sessionsEnded } = outcome as SessionsEnded;
  return (
    <p
      role="status"
      className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4 font-semibold"
    >
      {sessionsEnded === 1 ? "1 session was ended." : `${sessionsEnded} sessions were ended.`} Their
      next request goes to the sign-in page.
    </p>
  );
}
