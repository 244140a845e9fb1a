import { clinic } from "../../content/clinic.ts";
import type { PolicyFacts } from "../../content/policies/policy-types.ts";
import { CONSENT_STORAGE_KEY } from "../../features/consent/consent-record.ts";

/** The facts the policy texts quote, from the clinic's details and the consent feature. */
export const policyFacts: PolicyFacts = {
  clinicName: clinic.name,
  companyName: clinic.legalName,
  email: clinic.email,
  postalAddress: `${clinic.address.street}, ${clinic.address.locality} ${clinic.address.postcode}`,
  consentStorageKey: CONSENT_STORAGE_KEY,
};
