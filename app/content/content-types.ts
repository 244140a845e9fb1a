import type { LucideIcon } from "lucide-react";

export type LinkTarget = { label: string; to: string };

export type IconPoint = { icon: LucideIcon; title: string; body: string };

export type QuestionAnswer = { id: string; question: string; answer: string[] };
