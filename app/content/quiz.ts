// NOTE FOR THE CLINIC: the ten topics follow the ADAM questionnaire (Androgen Deficiency in the
// Ageing Male), whose items belong to Saint Louis University (Morley JE et al., Metabolism
// 2000;49(9):1239-42). Our "how often…" wording, for a five-point scale, is not the original
// text: confirm with the university before launch whether a licence or acknowledgement is needed.
export const answerOptions = ["Never", "Rarely", "Sometimes", "Often", "Always"] as const;
export type AnswerOption = (typeof answerOptions)[number];

// Each question covers the ADAM item (1-10) its id gives; the topic after it is for the clinic.
export const quizQuestions = [
  "How often do you notice that your interest in sex is lower than it used to be?", // Decreased libido
  "How often do you feel short of energy during the day?", // Lack of energy
  "How often do you notice that your strength or stamina is not what it was?", // Decreased strength or endurance
  "How often do you notice signs that you have lost height, such as being measured shorter or clothes fitting differently?", // Loss of height
  "How often do you feel you are enjoying life less than you used to?", // Decreased enjoyment of life
  "How often do you feel low, sad or irritable?", // Sad or grumpy
  "How often are your erections less firm than they used to be?", // Weaker erections
  "How often do you find your sport or exercise performance has slipped?", // Worse at sport
  "How often do you fall asleep soon after your evening meal?", // Falling asleep after dinner
  "How often do you feel your performance at work has dropped?", // Worse work performance
].map((text, i) => ({ id: i + 1, text }));

export type RiskBandKey = "low" | "moderate" | "higher";

const band = (short: string, message: string) => ({ title: `${short} Risk`, short, message });

export const riskBandText = {
  low: band(
    "Low",
    "Your answers suggest a lower likelihood of low testosterone. If something still doesn't feel right, it is worth speaking to a healthcare professional, such as your GP.",
  ),
  moderate: band(
    "Moderate",
    "Your answers suggest you may benefit from an evaluation. Only a blood test can show your testosterone level. Register your interest and we will let you know as soon as assessments open.",
  ),
  higher: band(
    "Higher",
    "Your answers strongly suggest that a proper evaluation is worthwhile, and that treatment may help if blood tests confirm low testosterone. We highly recommend registering your interest, so you hear first when assessments open.",
  ),
};

export const quizIntro = {
  lead: "Ten short questions about how you have been feeling lately. It takes about two minutes.",
  privacy:
    "Your answers stay in this browser tab: they are not saved or sent anywhere, and they are gone when you leave the page.",
  screeningNote:
    "This quiz is a screening aid, not a diagnosis. Only a clinician, with blood tests, can tell whether you have low testosterone.",
  noScript:
    "The interactive quiz needs JavaScript, which seems to be switched off. You can still score yourself: for each question below, count Never as 0, Rarely 1, Sometimes 2, Often 3 and Always 4, then add up the ten scores.",
} as const;

// The result beyond its band. The sensitivity (88%) and specificity (60%) are Morley et al.'s;
// CLINIC TO CONFIRM before launch (docs/content-review.md).
export const quizResultGuide = {
  meaningTitle: "What your score means",
  meaning: [
    "The ADAM questionnaire is a screening aid, not a diagnosis. It is good at picking up men who do have low testosterone: in the study that tested the original yes-or-no version, about 88% of them screened positive (its sensitivity). Our version scores the same ten topics on a five-point scale.",
    "It is much less good at ruling men out: only about 60% of men with normal levels screened negative (its specificity). Many men who score high have normal testosterone; tiredness, low mood, poor sleep, stress and other conditions cause the same symptoms.",
    "Only blood tests, read by a clinician alongside your symptoms, can tell whether your testosterone is low.",
  ],
  topAnswersTitle: "The answers that scored highest",
  topAnswersNone: "None of your answers scored above Never.",
  nextStepsTitle: "What to do next",
  nextSteps: [
    "Have two blood tests of total testosterone, each taken early in the morning (before 10am, when levels are highest) and at least four weeks apart. One low result is not enough, because levels vary from day to day.",
    "Ask for the panel a clinician needs to judge the results: total testosterone, free testosterone (or SHBG to work it out), LH and FSH, and often prolactin, a full blood count and PSA.",
    "You can start with your GP, free on the NHS: take this page with you. The NHS usually treats below about 8 nmol/L; our threshold is below 12 nmol/L with symptoms.",
  ],
  urgentTitle: "When to get help straight away",
  urgent:
    "Call 999 or go to A&E for chest pain, sudden weakness or trouble speaking. Call NHS 111 for an urgent concern that is not an emergency. If you are thinking about harming yourself, call 999 or Samaritans on 116 123, any time.",
  privacy: "Your answers have not been saved or sent anywhere.",
  printLabel: "Print this result",
} as const;
