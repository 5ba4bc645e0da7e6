import { AppError } from "../../src/errors.ts";
import { addDays, dayNumber, isValidDay } from "./days.ts";

/** The longest range a query may cover, both ends inclusive (a leap year). */
export const MAX_RANGE_DAYS = 366;
/** Days covered when `fromDay` is omitted: toDay − 6 .. toDay. */
export const DEFAULT_RANGE_DAYS = 7;

/** A bad argument of a query; the schema turns it into a GraphQL error with code BAD_USER_INPUT. */
export class EmulatorInputError extends AppError<"bad_user_input"> {
  constructor(message: string) {
    super("bad_user_input", message);
  }
}

function checkedDay(day: string): string {
  if (!isValidDay(day)) throw new EmulatorInputError(`"${day}" is not a date of the form YYYY-MM-DD.`);
  return day;
}

export interface DayRange {
  from: string;
  to: string;
  days: number;
}

/**
 * Resolves optional `fromDay`/`toDay` against `today` (UTC): omitted toDay → today, omitted
 * fromDay → toDay − 6. Inverted ranges and ranges over 366 days are input errors.
 */
export function resolveRange(
  fromDay: string | null | undefined,
  toDay: string | null | undefined,
  today: string,
): DayRange {
  // The Date scalar already rejects bad values; this guards the injected clock and direct callers.
  const to = checkedDay(toDay ?? today);
  const from = checkedDay(fromDay ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1)));
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) throw new EmulatorInputError(`fromDay (${from}) is after toDay (${to}).`);
  if (days > MAX_RANGE_DAYS) {
    throw new EmulatorInputError(
      `The range ${from}..${to} covers ${days} days; the most is ${MAX_RANGE_DAYS}.`,
    );
  }
  return { from, to, days };
}

/** The equally long period just before a range. */
export function previousRange(range: DayRange): DayRange {
  return { from: addDays(range.from, -range.days), to: addDays(range.from, -1), days: range.days };
}
