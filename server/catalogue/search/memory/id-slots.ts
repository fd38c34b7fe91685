/** Maps item ids to slots; ids are serial, so a typed array indexed by id is compact (4 bytes an id). */
import { ensureLength } from "./growable";

export class IdSlots {
  private slots = new Int32Array(0).fill(-1);
  get(id: number): number {
    return id < this.slots.length ? this.slots[id] : -1;
  }
  set(id: number, slot: number) {
    if (id >= this.slots.length) {
      const previous = this.slots.length;
      this.slots = ensureLength(this.slots, id + 1);
      this.slots.fill(-1, previous);
    }
    this.slots[id] = slot;
  }
}
