// Collection variable names that configuration spells out (`TX:EXECUTING_PARANOIA_LEVEL`,
// `%{tx.critical_anomaly_score}`, `setvar:tx.anomaly_score_pl1=+5`) get a small number at load,
// so reading or writing them during a request is an array access instead of a Map lookup by
// string (CRS reads TX well over a hundred times per request). One numbering for every
// collection and rule set in the process; it only grows with configuration text.
const slots = new Map<string, number>();

/** How many names have a slot (collections compare it to notice names numbered after them). */
export let nameSlotCount = 0;

/** The slot of a lower-cased variable name, given one if it has none yet (load time only). */
export function nameSlot(lowerName: string): number {
  let slot = slots.get(lowerName);
  if (slot === undefined) {
    slot = slots.size;
    slots.set(lowerName, slot);
    nameSlotCount = slots.size;
  }
  return slot;
}

/** The slot of a lower-cased name, or -1 when configuration never named it. */
export function existingNameSlot(lowerName: string): number {
  return slots.get(lowerName) ?? -1;
}
