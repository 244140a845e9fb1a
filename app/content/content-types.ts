import type { LucideIcon } from "lucide-react";

export type LinkTarget = { label: string; to: string };

export type CtaContent = {
  title: string;
  body: string;
  primary: LinkTarget;
  secondary?: LinkTarget;
};

export type IconPoint = { icon: LucideIcon; title: string; body: string };
