import { AppError } from "../errors.ts";

/** Why a range was refused; templates may branch on it, the message already explains it. */
export type RangeParseReason =
  | "not_a_range"
  | "bad_count"
  | "bad_date"
  | "inverted"
  | "too_long"
  | "too_early"
  | "in_future";

/**
 * A range the user typed that we cannot resolve. The message says what went wrong and lists the
 * accepted forms with examples, so it can be shown to the user as is.
 */
export class RangeParseError extends AppError<"bad_range"> {
  readonly reason: RangeParseReason;
  readonly input: string;
  constructor(reason: RangeParseReason, input: string, message: string) {
    super("bad_range", message, { details: { reason, input } });
    this.reason = reason;
    this.input = input;
  }
}

/** An IANA timezone name that the runtime's Intl data does not know. */
export class TimezoneError extends AppError<"bad_timezone"> {
  readonly tz: string;
  constructor(tz: string) {
    super(
      "bad_timezone",
      `"${tz}" is not a known IANA timezone (e.g. Europe/Berlin, America/Los_Angeles, UTC).`,
      {
        details: { tz },
      },
    );
    this.tz = tz;
  }
}
