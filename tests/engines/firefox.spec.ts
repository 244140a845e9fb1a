import { launchFirefox } from "./firefox.ts";
import { describeEngine } from "./journeys.ts";

describeEngine("Firefox ESR", launchFirefox);
