import { clinic, siteFlags } from "../../config/site.ts";
import type { PolicyFacts } from "../../content/policies/policy-types.ts";
import { CONSENT_STORAGE_KEY } from "../../features/consent/consent-record.ts";

/** The facts the policy texts quote, from the site configuration and the consent feature. */
export const policyFacts: PolicyFacts = {
  clinicName: clinic.name,
  companyName: siteFlags.companyRegistration,
  email: clinic.email,
  postalAddress: `${clinic.address.street}, ${clinic.address.locality} ${clinic.address.postcode}`,
  consentStorageKey: CONSENT_STORAGE_KEY,
};
