import type { Sentence } from "./sentence.ts";

/**
 * Time zones as people say them beside a time: "9am Pacific", "at 8 London time", "17:00 CET",
 * "Europe/Berlin". Abbreviations name the zone people mean by them, with its summer time (PT is
 * America/Los_Angeles all year); ambiguous ones ("IST": India, Israel or Ireland) are left out.
 */

const ZONE_WORDS: Readonly<Record<string, string>> = {
  utc: "UTC",
  gmt: "UTC",
  zulu: "UTC",
  pt: "America/Los_Angeles",
  pst: "America/Los_Angeles",
  pdt: "America/Los_Angeles",
  pacific: "America/Los_Angeles",
  mt: "America/Denver",
  mst: "America/Denver",
  mdt: "America/Denver",
  mountain: "America/Denver",
  ct: "America/Chicago",
  cst: "America/Chicago",
  cdt: "America/Chicago",
  central: "America/Chicago",
  et: "America/New_York",
  est: "America/New_York",
  edt: "America/New_York",
  eastern: "America/New_York",
  cet: "Europe/Berlin",
  cest: "Europe/Berlin",
  bst: "Europe/London",
  uk: "Europe/London",
  british: "Europe/London",
  jst: "Asia/Tokyo",
  aest: "Australia/Sydney",
  aedt: "Australia/Sydney",
  sgt: "Asia/Singapore",
  india: "Asia/Kolkata",
  london: "Europe/London",
  dublin: "Europe/Dublin",
  lisbon: "Europe/Lisbon",
  paris: "Europe/Paris",
  berlin: "Europe/Berlin",
  amsterdam: "Europe/Amsterdam",
  madrid: "Europe/Madrid",
  zurich: "Europe/Zurich",
  stockholm: "Europe/Stockholm",
  warsaw: "Europe/Warsaw",
  helsinki: "Europe/Helsinki",
  athens: "Europe/Athens",
  istanbul: "Europe/Istanbul",
  dubai: "Asia/Dubai",
  bangalore: "Asia/Kolkata",
  bengaluru: "Asia/Kolkata",
  mumbai: "Asia/Kolkata",
  delhi: "Asia/Kolkata",
  singapore: "Asia/Singapore",
  tokyo: "Asia/Tokyo",
  seoul: "Asia/Seoul",
  shanghai: "Asia/Shanghai",
  sydney: "Australia/Sydney",
  melbourne: "Australia/Melbourne",
  auckland: "Pacific/Auckland",
  seattle: "America/Los_Angeles",
  sf: "America/Los_Angeles",
  denver: "America/Denver",
  chicago: "America/Chicago",
  austin: "America/Chicago",
  boston: "America/New_York",
  nyc: "America/New_York",
  toronto: "America/Toronto",
  vancouver: "America/Vancouver",
};

/** Zones of two words: "new york", "san francisco", "central european", "tel aviv". */
const ZONE_PAIRS: Readonly<Record<string, string>> = {
  "new york": "America/New_York",
  "san francisco": "America/Los_Angeles",
  "los angeles": "America/Los_Angeles",
  "central european": "Europe/Berlin",
  "eastern european": "Europe/Helsinki",
  "western european": "Europe/Lisbon",
  "tel aviv": "Asia/Jerusalem",
  "hong kong": "Asia/Hong_Kong",
  "mexico city": "America/Mexico_City",
  "sao paulo": "America/Sao_Paulo",
};

/** Words of zones, kept from spelling correction ("london" is not a slip of anything). */
const ZONE_VOCABULARY: ReadonlySet<string> = new Set([
  ...Object.keys(ZONE_WORDS),
  ...Object.keys(ZONE_PAIRS).flatMap((p) => p.split(" ")),
]);

export const isZoneWord = (w: string): boolean => ZONE_VOCABULARY.has(w);

/** The first part of an IANA name, so "payments / api" is never tried as a zone. */
const AREAS = new Set([
  "africa",
  "america",
  "antarctica",
  "asia",
  "atlantic",
  "australia",
  "europe",
  "indian",
  "pacific",
]);

/** Whether the runtime knows `name` as a zone (in any case). */
export function knownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * An IANA name typed in lower case, spelt as the database does for nearly all of them
 * ("america/new_york" → "America/New_York"), when the runtime knows it. Not the runtime's own
 * spelling: that may be an old name ("Asia/Kolkata" comes back as "Asia/Calcutta").
 */
function typedZone(area: string, city: string): string | undefined {
  const name = `${area}/${city}`.replace(
    /(^|[/_-])([a-z])/g,
    (_m, sep: string, c: string) => sep + c.toUpperCase(),
  );
  return knownZone(name) ? name : undefined;
}

/** The zone said at `i` ("pacific", "new york", "europe / berlin"), with its words, or null. */
function zoneNameAt(s: Sentence, i: number): { len: number; tz: string } | null {
  const w = s.free(i);
  if (w === undefined) return null;
  if (AREAS.has(w) && s.free(i + 1) === "/" && s.free(i + 2) !== undefined) {
    const tz = typedZone(w, s.free(i + 2) as string);
    if (tz) return { len: 3, tz };
  }
  const pair = ZONE_PAIRS[`${w} ${s.free(i + 1)}`];
  if (pair) return { len: 2, tz: pair };
  const one = Object.hasOwn(ZONE_WORDS, w) ? ZONE_WORDS[w] : undefined;
  return one ? { len: 1, tz: one } : null;
}

/**
 * A zone said at `i`: "Pacific", "PT", "in London time", "New York time", "time zone UTC",
 * "Europe/Berlin". `besideTime` (the word after a time): any zone's word; elsewhere a bare word
 * ("pacific", "central") is a zone only followed by "time", since it may be a team's name, while an
 * IANA name is a zone wherever it stands. Returns its length and the IANA zone.
 */
export function zoneAt(s: Sentence, i: number, besideTime: boolean): { len: number; tz: string } | null {
  const named = Math.max(0, s.match(i, "time zone|timezone"));
  const head = named > 0 ? named : Math.max(0, s.match(i, "in|on? the?"));
  const zone = zoneNameAt(s, i + head);
  if (!zone) return null;
  const tail = Math.max(0, s.match(i + head + zone.len, "time|timezone|zone|standard|daylight? time?"));
  if (!besideTime && named === 0 && tail === 0 && zone.len !== 3) return null;
  return { len: head + zone.len + tail, tz: zone.tz };
}
