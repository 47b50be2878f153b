// The byte gate (byte-gate.ts) over a list of distinct values without touching them: their masks
// side by side in typed arrays, made once per list and phase. A gated rule scans three numbers
// per value and visits only the values its regex could match, or whose transformations would
// change them (then the gate, which judges the value as it is, cannot speak): at paranoia 4 the
// 8 KB JSON body's 187 distinct values meet ~120 gated rules, and the object-by-object walk cost
// more than the regexes it had left.
import type { VarEntry } from '../collections/keyed-list.js';
import { computeValueMasks } from './byte-gate.js';
import { classesOf } from './transform-chain.js';

export class GateColumns {
  /** Transformation trigger bits of each value (transform-chain.ts). */
  readonly triggers: Int32Array;
  readonly lo: Int32Array;
  readonly hi: Int32Array;

  constructor(cells: readonly VarEntry[], byteClasses: Int32Array) {
    const n = cells.length;
    this.triggers = new Int32Array(n);
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const cell = cells[i];
      computeValueMasks(cell);
      this.triggers[i] = classesOf(cell, byteClasses);
      this.lo[i] = cell.gateLo;
      this.hi[i] = cell.gateHi;
    }
  }
}
