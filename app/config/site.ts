// The one file staff edit to launch (README.md, "The launch switch"); details are in clinic.ts.
import { clinic } from "../content/clinic.ts";

const cqcStatus = "pending" as "pending" | "approved";

export const siteFlags = {
  showRegulatoryNotice: cqcStatus === "pending",
  cqcStatus,
  cqcText: "Services Available Upon CQC Approval",
  showPricing: false,
  showBooking: false,
  /** The company's legal name (the specification's flag): `clinic.legalName`, from its home. */
  companyRegistration: clinic.legalName,
  gmcRegistration: "GMC Registered Clinicians",
};

export const awaitingApproval = siteFlags.cqcStatus !== "approved";

/** Fixed at build time from SITE_URL, because prerendered pages carry it. */
export const siteUrl: string = import.meta.env.VITE_SITE_URL;
