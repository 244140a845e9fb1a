import { type PolicyDocument, list, section, table } from "./policy-types.ts";

export const shippingPolicy: PolicyDocument = {
  lastUpdated: "January 2025",
  version: "1.0",
  intro: [
    "Once our services launch, we will send test kits and prescribed treatment to addresses in the UK. This policy explains the delivery options, times and costs.",
  ],
  sections: [
    section("options", "Delivery options", [
      table(
        "Delivery options and costs",
        ["Service", "Cost", "Delivery time"],
        [
          ["Standard", "Free", "Up to 7 working days"],
          ["Priority", "£1.99", "2-4 working days"],
          ["Tracked", "£5.99", "1-2 working days"],
        ],
      ),
      "Delivery times start from the day your order is despatched.",
    ]),
    section("when", "When deliveries arrive", [
      list(
        "Deliveries arrive between 8am and 9pm, excluding bank holidays.",
        "Test kits fit through a letterbox, so you do not need to be in.",
        "Packaging is plain, with nothing on the outside to say what is inside.",
      ),
      "Some prescribed treatment may need a signature or cool packaging. We will tell you when that applies.",
    ]),
    section("problems", "Lost or damaged parcels", [
      "If your parcel has not arrived within the stated time, or arrives damaged, contact us and we will send a replacement at no cost once we have checked with the courier.",
    ]),
  ],
};
