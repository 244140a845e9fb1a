import type { LucideIcon } from "lucide-react";

/** Shapes shared by the content modules. */

export type LinkTarget = { label: string; to: string };

/** A short point with an icon: a trust point, a principle, a service. */
export type IconPoint = { icon: LucideIcon; title: string; body: string };

/** A question and its answer; paragraphs are separate strings. */
export type QuestionAnswer = { id: string; question: string; answer: string[] };
