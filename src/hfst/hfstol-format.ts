/**
 * The HFST optimized-lookup file format (`.hfstol`, weighted and unweighted) as written by
 * `hfst-fst2fst -O/-w` (hfst 3.16): an optional HFST3 header, a 56-byte optimized-lookup header,
 * the symbol table, the transition index table and the transition table, all little-endian and
 * packed (Silfverberg & Lindén, FSMNLP 2009; docs/hfst.md). Read into typed arrays and checked so
 * that a lookup never reads outside them; the search is in transducer.ts.
 */

/** The symbol number of "no symbol" (table terminators and final entries). */
export const NO_SYMBOL = 0xffff;
/** The target of an index entry that is not final. */
export const NO_TABLE_INDEX = 0xffffffff;
/** Targets at or above this point into the transition table (target − TA), below it into the index table. */
export const TA = 0x80000000;
const OL_HEADER_BYTES = 56;
const INDEX_ENTRY_BYTES = 6;

/** Why a `.hfstol` file could not be read. */
export class HfstFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HfstFormatError';
  }
}

/** The tables of one optimized-lookup transducer. */
export interface OptimizedLookupTables {
  /** The HFST3 header's properties (empty without one). */
  properties: Record<string, string>;
  weighted: boolean;
  inputSymbolCount: number;
  symbolCount: number;
  /** Symbol texts by number ('' for epsilon). */
  symbols: string[];
  idxIn: Uint16Array;
  idxTarget: Uint32Array;
  idxWeight: Float32Array;
  trIn: Uint16Array;
  trOut: Uint16Array;
  trTarget: Uint32Array;
  trWeight: Float32Array;
  /** Bytes the transducer takes (a stream may hold more after it). */
  bytes: number;
}

/** Reads the first transducer in `bytes`; throws `HfstFormatError` when they are not one. */
export function readOptimizedLookup(bytes: Uint8Array): OptimizedLookupTables {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  const properties: Record<string, string> = {};
  if (bytes.byteLength >= 8 && decoder.decode(bytes.subarray(0, 4)) === 'HFST' && bytes[4] === 0) {
    const length = view.getUint16(5, true);
    if (bytes[7] !== 0) throw new HfstFormatError('HFST3 header: byte 7 must be 0');
    const end = 8 + length;
    if (end > bytes.byteLength || length === 0 || bytes[end - 1] !== 0) throw new HfstFormatError('HFST3 header: property block is truncated');
    const parts = decoder.decode(bytes.subarray(8, end - 1)).split('\0');
    for (let i = 0; i + 1 < parts.length; i += 2) properties[parts[i]!] = parts[i + 1]!;
    const type = properties.type;
    if (type !== undefined && type !== 'HFST_OL' && type !== 'HFST_OLW') {
      throw new HfstFormatError(`this is an HFST transducer of type ${type}, not optimized-lookup; convert it with hfst-fst2fst -O (or -w for weights)`);
    }
    offset = end;
  }
  if (offset + OL_HEADER_BYTES > bytes.byteLength) throw new HfstFormatError('optimized-lookup header is truncated');
  const nIn = view.getUint16(offset, true);
  const nSym = view.getUint16(offset + 2, true);
  const nIdx = view.getUint32(offset + 4, true);
  const nTr = view.getUint32(offset + 8, true);
  for (let b = 0; b < 9; b++) {
    const flag = view.getUint32(offset + 20 + 4 * b, true);
    if (flag > 1) throw new HfstFormatError('optimized-lookup header: invalid boolean (is this an .hfstol file?)');
  }
  const weighted = view.getUint32(offset + 20, true) === 1;
  if (nIn === 0 || nIn > nSym) throw new HfstFormatError('optimized-lookup header: bad symbol counts');
  offset += OL_HEADER_BYTES;

  const symbols: string[] = [];
  for (let s = 0; s < nSym; s++) {
    const end = bytes.indexOf(0, offset);
    if (end < 0) throw new HfstFormatError('symbol table is truncated');
    symbols.push(s === 0 ? '' : decoder.decode(bytes.subarray(offset, end)));
    offset = end + 1;
  }

  const trBytes = weighted ? 12 : 8;
  const trOffset = offset + nIdx * INDEX_ENTRY_BYTES;
  const end = trOffset + nTr * trBytes;
  // A stream may hold further transducers after this one; like hfst-optimized-lookup, read the first.
  if (end > bytes.byteLength) throw new HfstFormatError(`transducer tables are truncated (${bytes.byteLength} bytes, ${end} expected)`);

  const idxIn = new Uint16Array(nIdx);
  const idxTarget = new Uint32Array(nIdx);
  // The weight of a final index entry is stored where its target is.
  const idxWeight = new Float32Array(idxTarget.buffer);
  for (let i = 0, o = offset; i < nIdx; i++, o += INDEX_ENTRY_BYTES) {
    idxIn[i] = view.getUint16(o, true);
    idxTarget[i] = view.getUint32(o + 2, true);
  }
  const trIn = new Uint16Array(nTr);
  const trOut = new Uint16Array(nTr);
  const trTarget = new Uint32Array(nTr);
  const trWeight = new Float32Array(nTr);
  for (let t = 0, o = trOffset; t < nTr; t++, o += trBytes) {
    trIn[t] = view.getUint16(o, true);
    trOut[t] = view.getUint16(o + 2, true);
    trTarget[t] = view.getUint32(o + 4, true);
    if (weighted) trWeight[t] = view.getFloat32(o + 8, true);
  }
  const tables = { properties, weighted, inputSymbolCount: nIn, symbolCount: nSym, symbols, idxIn, idxTarget, idxWeight, trIn, trOut, trTarget, trWeight, bytes: end };
  validateTables(tables);
  return tables;
}

/** Rejects tables whose pointers leave the tables, so lookup never reads outside them. */
function validateTables(tables: OptimizedLookupTables): void {
  const { inputSymbolCount: nIn, symbolCount: nSym, idxIn, idxTarget, trIn, trOut, trTarget } = tables;
  const nIdx = idxIn.length;
  const nTr = trIn.length;
  if (nIdx < 1) throw new HfstFormatError('transition index table is empty');
  if (nTr < 1 || trIn[nTr - 1] !== NO_SYMBOL) throw new HfstFormatError('transition table does not end with its terminator');
  const indexState = (target: number) => target + nIn < nIdx;
  for (let i = 0; i < nIdx; i++) {
    const input = idxIn[i]!;
    if (input === NO_SYMBOL) continue;
    const target = idxTarget[i]!;
    if (input >= nSym || target < TA || target - TA >= nTr) throw new HfstFormatError(`transition index ${i} points outside the tables`);
  }
  for (let t = 0; t < nTr; t++) {
    const input = trIn[t]!;
    if (input === NO_SYMBOL) continue;
    const target = trTarget[t]!;
    const ok = target >= TA ? target - TA + 1 < nTr : indexState(target);
    if (input >= nSym || trOut[t]! >= nSym || !ok) throw new HfstFormatError(`transition ${t} points outside the tables`);
  }
  if (!indexState(0)) throw new HfstFormatError('transition index table is too short');
}
