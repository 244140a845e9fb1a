/**
 * The site's launch flags and its public origin.
 *
 * This is the one file staff edit to launch (README.md, "The launch switch"). The clinic's
 * name and details (address, telephone, email, company number, social links) are in
 * app/content/clinic.ts.
 */
import { clinic } from "../content/clinic.ts";

const cqcStatus = "pending" as "pending" | "approved";

export const siteFlags = {
  /** Shows the fixed 'Services Available Upon CQC Approval' banner. */
  showRegulatoryNotice: cqcStatus === "pending",
  /** 'approved' removes the banner and every "awaiting approval" notice. */
  cqcStatus,
  cqcText: "Services Available Upon CQC Approval",
  /** Pricing and booking stay hidden or "not yet available" until launch. */
  showPricing: false,
  showBooking: false,
  /** The company's legal name (the specification's flag): `clinic.legalName`, from its home. */
  companyRegistration: clinic.legalName,
  gmcRegistration: "GMC Registered Clinicians",
};

/** True while the clinic waits for CQC registration: drives every "awaiting approval" notice. */
export const awaitingApproval = siteFlags.cqcStatus !== "approved";

/**
 * The public origin used for canonical URLs, Open Graph tags and the sitemap.
 * It is fixed at build time from SITE_URL, because prerendered pages carry it.
 */
export const siteUrl: string = import.meta.env.VITE_SITE_URL;
