// What a partner can learn changed about a listing (docs/contract.md §14): the `kind` of every
// change-feed entry and the event types a webhook subscribes to (§15).
export const CHANGE_KINDS = [
  'created',
  'updated',
  'deleted',
  'claimed',
  'unclaimed',
  'suppressed',
  'unsuppressed',
  'offer_set',
  'offer_deleted',
  'image_added',
  'image_changed',
  'image_deleted',
  'review_added',
  'review_deleted',
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];
