import { readSchedule } from "../schedule.ts";
import type { Pass } from "./found.ts";

export const schedulePass: Pass = {
  name: "schedule",
  why: "before periods: 'every Monday', 'on the 1st' and 'at 9' are when to send, not days to look at",
  run(s, found) {
    found.schedule = readSchedule(s, found.sending);
  },
};
