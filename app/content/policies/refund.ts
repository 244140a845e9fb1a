import { type PolicyDocument, list, p } from "./policy-types.ts";

export const refundPolicy: PolicyDocument = {
  lastUpdated: "January 2025",
  version: "1.0",
  intro: [
    "This policy explains your right to cancel an order for a test kit once our services launch, and how refunds are paid.",
  ],
  sections: [
    {
      id: "cancellation",
      heading: "Your 14-day cancellation right",
      blocks: [
        p("You can cancel within 14 days of the order date."),
        list(
          "If the kit has not been despatched, you get a full refund.",
          "If the kit has been despatched, we deduct £6 including VAT to cover the kit and postage, and refund the rest.",
        ),
      ],
    },
    {
      id: "no-cancellation",
      heading: "When you cannot cancel",
      blocks: [
        p("There is no cancellation right once:"),
        list(
          "the kit is activated;",
          "the sample has been sent to the laboratory; or",
          "the 14 days have passed.",
        ),
      ],
    },
    {
      id: "how-refunds",
      heading: "How refunds are paid",
      blocks: [
        p(
          "We pay refunds within 10 working days to the original payment method. If that is unavailable, we issue a gift card of the same value.",
        ),
        p("Extra postage you chose is non-refundable once the kit has been despatched."),
      ],
    },
    {
      id: "failed-tests",
      heading: "If a test fails",
      blocks: [
        p(
          "Sometimes a laboratory cannot process a sample, for example if there is not enough blood. Failed tests get a free retest.",
        ),
        p(
          "If you use a finger-prick kit, you can upgrade to a venous sample taken by a nurse after two failures.",
        ),
      ],
    },
    {
      id: "treatment",
      heading: "Prescribed treatment",
      blocks: [
        p(
          "For safety reasons, prescribed medicines cannot be returned or refunded once dispensed, unless they are faulty or we made a mistake. Membership cancellation is covered by our terms of service.",
        ),
      ],
    },
  ],
};
