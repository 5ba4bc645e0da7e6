import type { FilterOption } from "../src/analytics/types.ts";
import { LIMITS } from "../src/blockkit/limits.ts";
import { plain } from "../src/blockkit/text.ts";
import type {
  ExternalSelectElement,
  OptionGroup,
  OptionObject,
  StaticSelectElement,
} from "../src/blockkit/types.ts";
import { ACTION } from "../src/ids.ts";
import { TopN } from "../src/top-n.ts";
import { formatCount } from "./format.ts";

/**
 * The asset and scanner menus. Up to 100 choices: a static menu (assets grouped by parent, so
 * "payments / api" shows as "api" under "payments"); more: an external menu whose options the
 * options endpoint serves as the user types (see {@link optionsForQuery}).
 */

export type FilterKind = "asset" | "scanner";

const WORDS = {
  asset: { all: "All assets", one: "asset", many: "assets", action: ACTION.assetSelect },
  scanner: { all: "All scanners", one: "scanner", many: "scanners", action: ACTION.scannerSelect },
} as const;

/** The option value that clears a filter; no asset UUID or scanner id is ever this. */
export const ALL_VALUE = "*";
/** More choices than this and the menu becomes an external (type-ahead) one. */
export const STATIC_MENU_MAX = 100;
/** Names are never cut shorter than this to fit a text budget. */
const MIN_NAME = 12;
const SEPARATOR = " / ";

function nameOf(c: FilterOption): string {
  return c.displayValue.trim() === "" ? c.value : c.displayValue;
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function byName(list: readonly FilterOption[]): FilterOption[] {
  return [...list].sort((x, y) => collator.compare(nameOf(x), nameOf(y)));
}

// An account's list is read once and then drawn into every digest, redraw and menu of the account
// (thousands of assets for a large one): its usable choices are worked out once per list.
const usable = new WeakMap<readonly FilterOption[], readonly FilterOption[]>();

/**
 * Choices Slack can carry: a usable value (≤ 75 characters), each value once, in the service's order.
 * Lists are never changed once read, so the answer is kept per list.
 */
export function usableChoices(choices: readonly FilterOption[]): readonly FilterOption[] {
  const known = usable.get(choices);
  if (known) return known;
  const max = LIMITS.optionValue;
  const seen = new Set<string>();
  const out: FilterOption[] = [];
  for (const c of choices) {
    const v = c.value;
    if (v === "" || v === ALL_VALUE || v.length > max || seen.has(v)) continue;
    seen.add(v);
    out.push(c);
  }
  usable.set(choices, out);
  return out;
}

export function allOption(kind: FilterKind): OptionObject {
  return { text: plain(WORDS[kind].all, LIMITS.optionText), value: ALL_VALUE };
}

/** One option; `text` defaults to the full display name, cut to `max`. */
export function choiceOption(
  c: FilterOption,
  text = nameOf(c),
  max: number = LIMITS.optionText,
): OptionObject {
  return { text: plain(text, Math.min(max, LIMITS.optionText)), value: c.value };
}

function splitParent(name: string): [string | null, string] {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0 || at + SEPARATOR.length >= name.length) return [null, name];
  return [name.slice(0, at), name.slice(at + SEPARATOR.length)];
}

/** A menu before its texts are cut: group label (null for the flat menu) and its choices with their texts. */
type Draft = { label: string | null; items: { choice: FilterOption; text: string }[] }[];

/**
 * Groups by parent. Slack allows 100 groups (one goes to "Clear filter"), so when parents are that
 * many, single-child parents fold into "Other" under their full names.
 */
function draftGroups(kind: FilterKind, choices: FilterOption[]): Draft {
  const byParent = new Map<string, FilterOption[]>();
  const other: FilterOption[] = [];
  for (const c of choices) {
    const [parent] = splitParent(nameOf(c));
    const members = parent === null ? undefined : byParent.get(parent);
    if (parent === null) other.push(c);
    else if (members) members.push(c);
    else byParent.set(parent, [c]);
  }
  const fold = byParent.size + 2 > LIMITS.selectOptionGroups;
  const draft: Draft = [];
  for (const [parent, members] of byParent) {
    if (fold && members.length === 1) other.push(...members);
    else
      draft.push({
        label: parent,
        items: members.map((c) => ({ choice: c, text: splitParent(nameOf(c))[1] })),
      });
  }
  if (other.length > 0)
    draft.push({
      label: byParent.size > 0 ? "Other" : WORDS[kind].many,
      items: other.map((c) => ({ choice: c, text: nameOf(c) })),
    });
  return draft;
}

/** The largest cut (≤ 75) at which all texts together fit `budget`; short names are never touched. */
function fitCap(lengths: number[], budget: number): number {
  for (let cap = LIMITS.optionText; cap > MIN_NAME; cap--) {
    if (lengths.reduce((sum, n) => sum + Math.min(n, cap), 0) <= budget) return cap;
  }
  return MIN_NAME;
}

function placeholder(kind: FilterKind, selected: string[], total: number) {
  const w = WORDS[kind];
  if (selected.length > 1)
    return plain(`${formatCount(selected.length)} ${w.many} selected`, LIMITS.placeholder);
  if (total > STATIC_MENU_MAX) return plain(`Search ${formatCount(total)} ${w.many}`, LIMITS.placeholder);
  return plain(`Filter by ${w.one}`, LIMITS.placeholder);
}

/** A static menu's choices as Slack draws them: flat options, or groups. */
type MenuBody = Pick<StaticSelectElement, "options" | "option_groups">;

/** Freezes a cached menu body, so a caller changing a shared option fails loudly instead of changing other messages. */
function frozen<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

/** A menu's draft, the lengths of its texts (group labels and names) before any cut, and its bodies by cut. */
interface Drafted {
  draft: Draft;
  lengths: number[];
  /** One per length names are cut to (12 to 75): bounded without a sweep. */
  bodies: Map<number, MenuBody>;
}

/**
 * The options of a static menu of `choices`, texts cut to fit `budget`: what every digest of the
 * account draws the same, so it is built once per list, kind and cut (lists are never changed once
 * read; the bodies are frozen and shared), and each menu adds only its placeholder and choice. The
 * budget is what is left of the message's text after the rest of the digest, so it differs from one
 * digest to the next; the body depends on it only through the length names are cut to, which is
 * what names the body (keyed by the budget, nearly every digest built its menus again).
 */
const drafts = new WeakMap<readonly FilterOption[], Map<FilterKind, Drafted>>();

function draftOf(kind: FilterKind, choices: readonly FilterOption[]): Drafted {
  let perList = drafts.get(choices);
  if (!perList) {
    perList = new Map();
    drafts.set(choices, perList);
  }
  const known = perList.get(kind);
  if (known) return known;
  const sorted = byName(choices);
  const hasParents = sorted.some((c) => splitParent(nameOf(c))[0] !== null);
  const draft: Draft =
    !hasParents && sorted.length < STATIC_MENU_MAX
      ? [{ label: null, items: sorted.map((c) => ({ choice: c, text: nameOf(c) })) }]
      : draftGroups(kind, sorted);
  const lengths = draft.flatMap((g) => [
    ...(g.label === null ? [] : [g.label.length]),
    ...g.items.map((i) => i.text.length),
  ]);
  const drafted = { draft, lengths, bodies: new Map<number, MenuBody>() };
  perList.set(kind, drafted);
  return drafted;
}

function menuBody(kind: FilterKind, choices: readonly FilterOption[], budget: number): MenuBody {
  const { draft, lengths, bodies } = draftOf(kind, choices);
  const cap = fitCap(lengths, budget);
  const known = bodies.get(cap);
  if (known) return known;
  const body = frozen(buildBody(kind, draft, cap));
  bodies.set(cap, body);
  return body;
}

function buildBody(kind: FilterKind, draft: Draft, cap: number): MenuBody {
  const built = draft.map((g) => ({
    label: g.label,
    options: g.items.map((i) => choiceOption(i.choice, i.text, cap)),
  }));
  const flat = built.length === 1 && built[0]?.label === null;
  if (flat) return { options: [allOption(kind), ...(built[0]?.options ?? [])] };
  const clear: OptionGroup = {
    label: plain("Clear filter", LIMITS.optionGroupLabel),
    options: [allOption(kind)],
  };
  return {
    option_groups: [clear, ...built.map((g) => ({ label: plain(g.label ?? "", cap), options: g.options }))],
  };
}

function staticMenu(
  kind: FilterKind,
  choices: readonly FilterOption[],
  selected: string[],
  budget: number,
): StaticSelectElement {
  const body = menuBody(kind, choices, budget);
  const menu: StaticSelectElement = {
    type: "static_select",
    action_id: WORDS[kind].action,
    placeholder: placeholder(kind, selected, choices.length),
    ...body,
  };
  const initialValue = selected.length === 0 ? ALL_VALUE : selected.length === 1 ? selected[0] : undefined;
  const groups = menu.option_groups ?? [{ options: menu.options ?? [] }];
  let initial: OptionObject | undefined;
  for (const g of groups) {
    initial = g.options.find((o) => o.value === initialValue);
    if (initial) break;
  }
  if (initial) menu.initial_option = initial;
  return menu;
}

/**
 * The menu for one filter, or null when there is nothing to choose from. The current choice is
 * pre-selected when exactly one is active; none active shows the clearing option. `textBudget`
 * bounds the characters of all option texts and group labels together (long names are cut to fit),
 * so a menu of 100 long names cannot push a message past its total-text limit.
 */
export function filterMenu(
  kind: FilterKind,
  available: FilterOption[],
  selected: string[],
  textBudget: number = Number.POSITIVE_INFINITY,
): StaticSelectElement | ExternalSelectElement | null {
  const choices = usableChoices(available);
  if (choices.length === 0) return null;
  if (choices.length <= STATIC_MENU_MAX) return staticMenu(kind, choices, selected, textBudget);
  const current = selected.length === 1 ? choices.find((c) => c.value === selected[0]) : undefined;
  const menu: ExternalSelectElement = {
    type: "external_select",
    action_id: WORDS[kind].action,
    placeholder: placeholder(kind, selected, choices.length),
    min_query_length: 1,
  };
  if (current) menu.initial_option = choiceOption(current);
  return menu;
}

/**
 * A list as type-ahead searches it, worked out once per list (a large account's is thousands of
 * names): its usable choices and their names in lower case.
 */
interface Searchable {
  choices: readonly FilterOption[];
  lower: string[];
}
const searchable = new WeakMap<readonly FilterOption[], Searchable>();

function searchableOf(available: readonly FilterOption[]): Searchable {
  const known = searchable.get(available);
  if (known) return known;
  const choices = usableChoices(available);
  const entry: Searchable = { choices, lower: choices.map((c) => nameOf(c).toLocaleLowerCase("en")) };
  searchable.set(available, entry);
  return entry;
}

/**
 * The first `room` of `choices` whose lower-case name holds `q`, by name (equal names in list
 * order, as a stable sort gives them): kept as they are found, so a query that matches thousands
 * compares each with the last kept one instead of sorting them all.
 */
function firstByName(list: Searchable, q: string, room: number): FilterOption[] {
  const top = new TopN<FilterOption>(room, (a, b) => collator.compare(nameOf(a), nameOf(b)));
  for (let i = 0; i < list.choices.length; i++)
    if ((list.lower[i] as string).includes(q)) top.offer(list.choices[i] as FilterOption);
  return top.kept;
}

/**
 * The options endpoint's reply for an external menu: the clearing option, then up to 99 choices
 * whose name contains `query` (case-insensitive), by name.
 */
export function optionsForQuery(
  kind: FilterKind,
  available: FilterOption[],
  query: string,
): { options: OptionObject[] } {
  const q = query.trim().toLocaleLowerCase("en");
  const chosen = firstByName(searchableOf(available), q, STATIC_MENU_MAX - 1);
  return { options: [allOption(kind), ...chosen.map((c) => choiceOption(c))] };
}
