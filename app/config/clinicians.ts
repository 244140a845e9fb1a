/**
 * Each clinician's GMC reference number, keyed by the team member's id in
 * app/content/team.ts. The team page links every number to the GMC's online register.
 *
 * REPLACE BEFORE LAUNCH: these are placeholders. "0000001" and "0000002" cannot be real
 * GMC numbers (real ones do not start with 0), so no link points at a real doctor's entry.
 */
export const gmcNumbers: Readonly<Record<string, string>> = {
  "medical-director": "0000001",
  "lead-clinician": "0000002",
};

/** A doctor's entry on the GMC's List of Registered Medical Practitioners. */
export function gmcRegisterUrl(gmcNumber: string): string {
  return `https://www.gmc-uk.org/doctors/${gmcNumber}`;
}
