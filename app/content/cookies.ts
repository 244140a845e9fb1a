/** Keyed by the categories of features/consent/consent-record.ts (the dialog checks them all). */
export const consentCategoryText = {
  essential: {
    label: "Essential",
    description:
      "Needed for the site to work and to remember this choice. They cannot be switched off.",
  },
  analytics: {
    label: "Analytics",
    description:
      "If you register interest, records which campaign link or website brought you, on our own systems only. No other company sees it.",
  },
  functional: {
    label: "Functional",
    description: "Would remember preferences you set, such as accessibility options.",
  },
  marketing: {
    label: "Marketing",
    description:
      "Would let us measure campaigns on other sites. We do not use any marketing cookies today.",
  },
};

export const consentBannerText = {
  title: "Cookies on this site",
  body: "We use essential storage to make the site work. Nothing optional is set until you choose.",
  policyLink: "Cookie policy",
  acceptAll: "Accept All",
  essentialOnly: "Essential Only",
  manage: "Manage preferences",
  save: "Save preferences",
};
