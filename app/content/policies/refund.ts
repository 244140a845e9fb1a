import { type PolicyDocument, list, section } from "./policy-types.ts";

export const refundPolicy: PolicyDocument = {
  lastUpdated: "January 2025",
  version: "1.0",
  intro: [
    "This policy explains your right to cancel an order for a test kit once our services launch, and how refunds are paid.",
  ],
  sections: [
    section("cancellation", "Your 14-day cancellation right", [
      "You can cancel within 14 days of the order date.",
      list(
        "If the kit has not been despatched, you get a full refund.",
        "If the kit has been despatched, we deduct £6 including VAT to cover the kit and postage, and refund the rest.",
      ),
    ]),
    section("no-cancellation", "When you cannot cancel", [
      "There is no cancellation right once:",
      list(
        "the kit is activated;",
        "the sample has been sent to the laboratory; or",
        "the 14 days have passed.",
      ),
    ]),
    section("how-refunds", "How refunds are paid", [
      "We pay refunds within 10 working days to the original payment method. If that is unavailable, we issue a gift card of the same value.",
      "Extra postage you chose is non-refundable once the kit has been despatched.",
    ]),
    section("failed-tests", "If a test fails", [
      "Sometimes a laboratory cannot process a sample, for example if there is not enough blood. Failed tests get a free retest.",
      "If you use a finger-prick kit, you can upgrade to a venous sample taken by a nurse after two failures.",
    ]),
    section("treatment", "Prescribed treatment", [
      "For safety reasons, prescribed medicines cannot be returned or refunded once dispensed, unless they are faulty or we made a mistake. Membership cancellation is covered by our terms of service.",
    ]),
  ],
};
