/**
 * Each node's state in the current jump point search, 2 bits per node (1 open, 2 closed, 0
 * neither), 16 nodes per word: the same answers as the scratch's stamps (which the searches keep
 * writing, for their callers), but a plane small enough to stay in cache, so rejecting a settled
 * successor, or telling a new one, reads no large array. Cleared word by word through `touched` at
 * the next search, so a search costs nothing in proportion to the map.
 *
 * Memory: 0.25 bytes per node, plus 4 bytes per 16 nodes for `touched`.
 */
export class NodeMarks {
  readonly marks: Uint32Array;
  /** The indices of the words of `marks` that are not zero; `count` of them. */
  readonly touched: Int32Array;
  count = 0;

  constructor(size: number) {
    this.marks = new Uint32Array((size + 15) >>> 4);
    this.touched = new Int32Array(this.marks.length);
  }

  get bytes(): number {
    return this.marks.byteLength + this.touched.byteLength;
  }

  /** Clears the last search's marks and marks `start` open. */
  begin(start: number): void {
    const marks = this.marks;
    const touched = this.touched;
    for (let i = this.count - 1; i >= 0; i--) marks[touched[i]] = 0;
    marks[start >>> 4] = 1 << ((start & 15) << 1);
    touched[0] = start >>> 4;
    this.count = 1;
  }
}
