import { CONSENT_STORAGE_KEY } from "./consent-record.ts";
import { ATTRIBUTION_STORAGE_KEY } from "../../../contract/registrations.ts";
import { clinic } from "../../content/clinic.ts";
import type { PolicyFacts } from "../../content/policies/policy-types.ts";

/**
 * The facts the policy texts quote. Here, not in content, because content may not import
 * this feature's storage key; the legal routes pass them in.
 */
export const policyFacts: PolicyFacts = {
  clinicName: clinic.name,
  companyName: clinic.legalName,
  email: clinic.email,
  postalAddress: `${clinic.address.street}, ${clinic.address.locality} ${clinic.address.postcode}`,
  consentStorageKey: CONSENT_STORAGE_KEY,
  visitSourceStorageKey: ATTRIBUTION_STORAGE_KEY,
};
