export const consultationIntro =
  "Your consultation is a 45-minute video call with one of our doctors. To make the most of it, you will need a few things ready beforehand.";

export const requirements = {
  title: "What you will need",
  intro:
    "Please have these ready when consultations open. Send them to us at least 48 hours before your appointment, so your doctor can review them in advance.",
  items: [
    {
      title: "Two low testosterone results",
      body: "Two results at least four weeks apart, both below 12 nmol/L.",
    },
    {
      title: "Recent morning blood tests",
      body: "Taken before 10am, when testosterone is naturally at its highest.",
    },
    {
      title: "A complete hormone panel",
      body: "Total testosterone, free testosterone, LH, FSH and SHBG.",
    },
    {
      title: "Your medical history",
      body: "The medications and supplements you take, and any health conditions you have.",
    },
  ],
  note: "No results yet? We will offer blood tests that cover everything above once we open. Many NHS services only consider treatment below 8 nmol/L, so you may have been told your level is normal even with symptoms.",
};

export const consultationSteps = {
  title: "During the consultation",
  items: [
    "Your doctor goes through your symptoms, results and history with you.",
    "You talk about your goals and any concerns, including fertility.",
    "If treatment is appropriate, you agree a plan together and your doctor explains the options.",
    "You receive a written summary, and we write to your GP if you agree.",
  ],
};

export const bookingPlaceholder = {
  title: "Bookings Not Yet Available",
  body: "We cannot take bookings until we are registered with the Care Quality Commission. Register your interest and we will let you know as soon as consultations open.",
  cta: { label: "Register Your Interest", to: "/register-interest" },
};

/** Shown in place of the placeholder once `siteFlags.showBooking` is true. */
export const bookingOpen = {
  title: "Book your consultation",
  body: "Consultations are now open. Contact our team to arrange your appointment.",
  cta: { label: "Contact Our Team", to: "/contact" },
};
