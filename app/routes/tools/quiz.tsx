import { Clock, Lock, Stethoscope } from "lucide-react";

import { MedicalNote } from "../../components/content/notices.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { answerOptions, quizIntro, quizQuestions, riskBandText } from "../../content/quiz.ts";
import { answerPoints, riskBands } from "../../features/quiz/scoring.ts";
import { quizIsland } from "../../features/quiz/symptom-quiz.tsx";
import { Island } from "../../lib/island.tsx";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/quiz");

const facts = [
  { icon: Clock, text: "Ten questions, about two minutes" },
  { icon: Lock, text: "Nothing is saved or sent" },
  { icon: Stethoscope, text: "A screening aid, not a diagnosis" },
] as const;

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Symptom check" title={pages["/quiz"].heading}>
        <p>{quizIntro.lead}</p>
        <ul className="mt-5 flex flex-col gap-x-6 gap-y-2 text-base sm:flex-row sm:flex-wrap">
          {facts.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-2">
              <Icon aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
              {text}
            </li>
          ))}
        </ul>
      </PageHero>
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        {/* Every question and the scoring key, to score on paper. */}
        <noscript>
          <div className="mb-8 rounded-card border border-warning/30 bg-warning-bg px-5 py-5 text-ink sm:px-7">
            <p className="font-semibold">{quizIntro.noScript}</p>
            <ol className="mt-4 list-decimal space-y-2 pl-6">
              {quizQuestions.map((q) => (
                <li key={q.id}>{q.text}</li>
              ))}
            </ol>
            <p className="mt-4">
              Points: {answerOptions.map((o) => `${o} ${answerPoints[o]}`).join(", ")}. Your total
              means:
            </p>
            <ul className="mt-2 list-disc space-y-1 pl-6">
              {riskBands.map((b) => (
                <li key={b.key}>
                  <strong>
                    {b.min}-{b.max}, {riskBandText[b.key].title}:
                  </strong>{" "}
                  {riskBandText[b.key].message}
                </li>
              ))}
            </ul>
          </div>
        </noscript>
        <Island island={quizIsland} props={{}} />
        <p className="mt-8 text-sm leading-relaxed text-ink-soft">{quizIntro.privacy}</p>
        <MedicalNote className="mt-6" />
      </div>
    </>
  );
}
