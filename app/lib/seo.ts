import type { MetaDescriptor } from "react-router";

import { siteUrl } from "../config/site.ts";
import { clinic } from "../content/clinic.ts";
import { type PageInfo, type PagePath, pages } from "../content/pages.ts";

const absoluteUrl = (path: string) => new URL(path, siteUrl).href;

export const pageMeta = (path: PagePath, extra: MetaDescriptor[] = []) =>
  metaFor(pages[path], path, extra);

export function metaFor(page: PageInfo, path: string | null, extra: MetaDescriptor[] = []) {
  const image = absoluteUrl("/og-image.png");
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: clinic.name },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: `${clinic.name}: men's health clinic` },
    { property: "og:locale", content: "en_GB" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
  const where: MetaDescriptor[] =
    path === null
      ? [{ name: "robots", content: "noindex" }]
      : [
          { tagName: "link", rel: "canonical", href: absoluteUrl(path) },
          { property: "og:url", content: absoluteUrl(path) },
        ];
  return [...tags, ...where, ...extra];
}

const jsonLd = (data: Record<string, unknown>): MetaDescriptor => ({
  "script:ld+json": { "@context": "https://schema.org", ...data },
});

/** No rating: search engines do not accept a business's own ratings as structured data. */
export function medicalClinicJsonLd(): MetaDescriptor {
  return jsonLd({
    "@type": "MedicalClinic",
    name: clinic.name,
    url: absoluteUrl("/"),
    telephone: clinic.phone.display,
    email: clinic.email,
    medicalSpecialty: "Endocrine",
    address: {
      "@type": "PostalAddress",
      streetAddress: clinic.address.street,
      addressLocality: clinic.address.locality,
      postalCode: clinic.address.postcode,
      addressCountry: "GB",
    },
    openingHoursSpecification: {
      "@type": "OpeningHoursSpecification",
      dayOfWeek: clinic.openingHoursSpec.days,
      opens: clinic.openingHoursSpec.opens,
      closes: clinic.openingHoursSpec.closes,
    },
  });
}

export function faqPageJsonLd(items: { question: string; answer: string[] }[]): MetaDescriptor {
  return jsonLd({
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer.join(" ") },
    })),
  });
}
