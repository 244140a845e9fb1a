import { describeEngine } from "./journeys.ts";
import { launchWebKit } from "./webkit.ts";

describeEngine("WebKitGTK", launchWebKit);
