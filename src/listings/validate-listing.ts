// Checks of docs/contract.md §4 that a JSON schema cannot express. Pure: the caller looks up what
// exists (categories of the country, ids of the listing's sub-objects) and passes it in.
import type { StoredHours, StoredSpecialDay } from './listing-records.js';
import type { ListingInput } from '../schemas/listing.js';
import { normaliseHours } from './hours.js';
import { closureErrors, normaliseSpecialHours, normaliseTimeZone } from './special-hours.js';

export interface ValidationContext {
  country: string;
  knownCategoryIds: ReadonlySet<string>;
  /** Ids of the emails, phones and links the listing has now; empty on create. */
  existingSubIds: { emails: ReadonlySet<number>; phones: ReadonlySet<number>; links: ReadonlySet<number> };
  /** On create, ids sent with sub-objects are ignored; on update they must be the listing's own. */
  keepSubIds: boolean;
}

export interface NormalisedHours {
  hours: StoredHours;
  specialHours: StoredSpecialDay[];
  /** Undefined: the country's default. */
  timeZone: string | undefined;
}

export function validateListingInput(input: ListingInput, ctx: ValidationContext): { errors: string[] } & NormalisedHours {
  const errors: string[] = [];
  if (input.country_code !== undefined && input.country_code.toLowerCase() !== ctx.country) {
    errors.push(`country_code: must be "${ctx.country}", the country of the path`);
  }
  const hasLat = input.latitude !== undefined && input.latitude !== null;
  const hasLon = input.longitude !== undefined && input.longitude !== null;
  if (hasLat !== hasLon) errors.push('latitude, longitude: must both be numbers or both be null');

  const seen = new Set<string>();
  input.categories.forEach((c, i) => {
    if (!ctx.knownCategoryIds.has(c.id)) errors.push(`categories[${i}].id: unknown category "${c.id}" for country ${ctx.country}`);
    if (seen.has(c.id)) errors.push(`categories[${i}].id: duplicate category "${c.id}"`);
    seen.add(c.id);
  });

  if (ctx.keepSubIds) {
    for (const kind of ['emails', 'phones', 'links'] as const) {
      (input[kind] ?? []).forEach((item, i) => {
        if (item.id !== undefined && !ctx.existingSubIds[kind].has(Number(item.id))) {
          errors.push(`${kind}[${i}].id: ${item.id} is not an id of this listing's ${kind}`);
        }
      });
    }
  }

  const hours = normaliseHours(input.hours);
  errors.push(...hours.errors);
  const special = normaliseSpecialHours(input.special_hours);
  const zone = normaliseTimeZone(input.time_zone);
  errors.push(...special.errors, ...closureErrors(input.temporarily_closed), ...zone.errors);
  return { errors, hours: hours.hours, specialHours: special.specialHours, timeZone: zone.timeZone };
}
