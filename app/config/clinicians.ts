/** By team member id. REPLACE BEFORE LAUNCH: real GMC numbers never start with 0. */
export const gmcNumbers: Readonly<Record<string, string>> = {
  "medical-director": "0000001",
  "lead-clinician": "0000002",
};

export const gmcRegisterUrl = (gmcNumber: string) => `https://www.gmc-uk.org/doctors/${gmcNumber}`;
